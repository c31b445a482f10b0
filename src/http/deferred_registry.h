// The deferred answers (http/deferred_responder.h) a server has handed out and that may still be
// held. A handler may keep its Responder after its exchange, and after the server has stopped: in a
// write queued on the database, a task on a pool, a stream's subscriber. The Responder holds its
// connection, and a connection must not outlive its server: its socket belongs to the server's
// event loops and its counts to the server. So the server closes this registry once its loops have
// stopped and before it is destroyed: every Responder still held lets go of its connection then,
// on the stopping thread, and any later call finds the server gone and does nothing. Until then,
// a Responder uses its connection from other threads only inside while_open(), which close() waits
// for. Internal to src/http. Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace parley::http_session {

// What a registry holds: a Responder that can let go of its connection.
class HoldsConnection {
 public:
  struct Released {
    std::shared_ptr<void> connection;
    std::function<void()> resume;  // a producer waiting for room, told to go on (and find it gone)
  };
  // Gives up the connection (under the registry's lock; the caller runs `resume` and destroys the
  // connection after it).
  virtual Released let_go() = 0;

 protected:
  ~HoldsConnection() = default;

 private:
  friend class DeferredRegistry;
  HoldsConnection* prev_ = nullptr;
  HoldsConnection* next_ = nullptr;
};

class DeferredRegistry {
 public:
  // Runs fn() if the server has not stopped; it cannot stop while fn runs. Whether fn ran.
  template <typename Fn>
  bool while_open(Fn&& fn) {
    std::shared_lock lock(gate_);
    if (!open_) return false;
    std::forward<Fn>(fn)();
    return true;
  }

  void add(HoldsConnection* h) {
    std::shared_lock lock(gate_);
    if (!open_) return;
    std::lock_guard list(list_mu_);
    h->next_ = head_;
    if (head_ != nullptr) head_->prev_ = h;
    head_ = h;
  }

  // `h` is being destroyed: it leaves the registry and, if the server has not taken its connection
  // already, release() lets go of it here, where the server cannot stop meanwhile.
  template <typename Fn>
  void remove(HoldsConnection* h, Fn&& release) {
    std::shared_lock lock(gate_);
    if (!open_) return;
    {
      std::lock_guard list(list_mu_);
      if (h->prev_ != nullptr) h->prev_->next_ = h->next_;
      if (h->next_ != nullptr) h->next_->prev_ = h->prev_;
      if (head_ == h) head_ = h->next_;
      h->prev_ = h->next_ = nullptr;
    }
    std::forward<Fn>(release)();
  }

  // The server stops: every Responder still held lets go of its connection. Producers waiting for
  // room are woken (their writes are refused from now on) and the connections destroyed after the
  // lock: either may destroy a Responder.
  void close() {
    std::vector<HoldsConnection::Released> released;
    {
      std::unique_lock lock(gate_);
      if (!open_) return;
      open_ = false;
      for (HoldsConnection* h = head_; h != nullptr; h = h->next_) released.push_back(h->let_go());
      head_ = nullptr;
    }
    for (auto& r : released) {
      if (r.resume) r.resume();
    }
  }

 private:
  std::shared_mutex gate_;  // held shared by uses of a connection, exclusively by close()
  bool open_ = true;
  std::mutex list_mu_;  // the list, under a shared gate
  HoldsConnection* head_ = nullptr;
};

}  // namespace parley::http_session
