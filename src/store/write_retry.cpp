#include "store/write_retry.h"

namespace parley {

Result<void> run_write_attempts(const std::function<WriteAttempt()>& attempt, int max_attempts) {
  for (int i = 0; i < max_attempts; ++i) {
    WriteAttempt a = attempt();
    if (!a.conflict) return std::move(a.result);
  }
  return ApiError{ErrorCode::kUnavailable,
                  "The change kept conflicting with concurrent changes; retry."};
}

}  // namespace parley
