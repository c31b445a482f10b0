#include "workers/figure_sweeper.h"

#include "core/log.h"
#include "domain/analytics.h"

namespace parley {

namespace {
constexpr int64_t kBatch = 200;
constexpr int kBatchesPerRun =
    50;  // then the next run goes on, so a backlog never holds a thread long
}  // namespace

FigureSweeper::FigureSweeper(Services s)
    : s_(s), every_ten_seconds_(std::chrono::seconds(10), [this] { sweep(); }) {}

void FigureSweeper::sweep() {
  for (int i = 0; i < kBatchesPerRun; ++i) {
    auto ended = end_idle_conversations(s_, kBatch);
    if (!ended.ok()) {
      log_warn("idle conversations not ended",
               {{"error", std::string_view(ended.error().message)}});
      return;
    }
    if (*ended < kBatch) return;
  }
}

}  // namespace parley
