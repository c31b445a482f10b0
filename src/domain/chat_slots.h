// Admission for reply engines: how many chat turns may run an engine at once for one agent, for
// one account and on the whole server. A turn takes a slot before its engine starts and gives it
// back when the engine has really returned, even when its client was already answered 504, so
// a stalling provider fills the caps of the agents using it (429 agent_busy at once for their
// next visitors) instead of the capacity every other tenant needs. Thread-safe: one mutex held
// for a few map operations; the maps hold only agents and accounts with work in flight.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/string_map.h"

namespace parley {

// A reply in flight is a small state object (no thread waits on it), so the caps are about
// fairness and memory, not threads: one agent may take an eighth of the server, one account half.
struct ChatSlotLimits {
  int64_t per_agent = 2'500;     // --agent-concurrent-replies
  int64_t per_account = 10'000;  // --account-concurrent-replies
  int64_t total = 20'000;        // --concurrent-replies
};

// Seconds a refused client is told to wait: about one reply's time.
inline constexpr int64_t kBusyRetryAfterS = 2;

class ChatSlots {
 public:
  explicit ChatSlots(ChatSlotLimits limits) : limits_(limits) {}
  ChatSlots(const ChatSlots&) = delete;
  ChatSlots& operator=(const ChatSlots&) = delete;

  // A taken slot; destroying it gives the slot back. Must not outlive the ChatSlots.
  class Lease {
   public:
    Lease(ChatSlots& owner, std::string account_id, std::string agent_id)
        : owner_(owner), account_id_(std::move(account_id)), agent_id_(std::move(agent_id)) {}
    ~Lease() { owner_.release(account_id_, agent_id_); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

   private:
    ChatSlots& owner_;
    std::string account_id_;
    std::string agent_id_;
  };

  // A slot for one engine run of the agent; 429 agent_busy naming the agent's or the account's
  // cap, or 503 unavailable when the server runs `total` engines already; each with Retry-After.
  Result<std::unique_ptr<Lease>> acquire(std::string_view account_id, std::string_view agent_id);

  const ChatSlotLimits& limits() const { return limits_; }
  // Engines running now (for tests and metrics).
  int64_t in_flight();

 private:
  void release(const std::string& account_id, const std::string& agent_id);

  const ChatSlotLimits limits_;
  std::mutex mu_;
  StringMap<int64_t> agents_;
  StringMap<int64_t> accounts_;
  int64_t total_ = 0;
};

}  // namespace parley
