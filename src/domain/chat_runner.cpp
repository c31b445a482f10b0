#include "domain/chat_runner.h"

#include <algorithm>
#include <chrono>
#include <future>

namespace parley {

Result<ChatReply> reply_within_deadline(std::shared_ptr<ChatTurn> turn, const Clock& clock,
                                        ThreadPool& pool) {
  if (turn->paused()) return turn->commit();
  auto done = std::make_shared<std::promise<Result<void>>>();
  std::future<Result<void>> outcome = done->get_future();
  // The task keeps the turn (and its slot) alive after this thread stopped waiting.
  pool.post([turn, done] { done->set_value(turn->run([](std::string_view) { return true; })); });
  int64_t wait_ms = std::max<int64_t>(0, turn->deadline_ms() - clock.now_ms()) + 1;
  if (outcome.wait_for(std::chrono::milliseconds(wait_ms)) != std::future_status::ready)
    return ApiError{ErrorCode::kTimeout, "The reply took longer than the chat timeout."};
  PARLEY_TRY(outcome.get());
  return turn->commit();
}

Result<ChatReply> reply_to_message(ChatServices& s, std::string_view account_id, const ChatRequest& r,
                                   ThreadPool& pool) {
  PARLEY_ASSIGN_OR_RETURN(auto turn, ChatTurn::prepare(s, account_id, r));
  return reply_within_deadline(std::make_shared<ChatTurn>(std::move(turn)), s.clock, pool);
}

}  // namespace parley
