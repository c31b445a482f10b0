#include "workers/refresh_scheduler.h"

#include "core/log.h"
#include "domain/crawl_schedule.h"

namespace parley {

RefreshScheduler::RefreshScheduler(Services services, CrawlSettings settings,
                                   CrawlListener* listener, int64_t period_ms)
    : services_(services),
      settings_(settings),
      listener_(listener),
      every_period_(std::chrono::milliseconds(period_ms), [this] { check(); }) {}

void RefreshScheduler::check() {
  auto queued = queue_due_refreshes(services_, settings_);
  if (!queued.ok()) {
    log_warn("queueing automatic refreshes failed",
             {{"error", std::string_view(queued.error().message)}});
    return;
  }
  if (*queued == 0) return;
  log_info("automatic refreshes queued", {{"crawls", *queued}});
  if (listener_ != nullptr) listener_->crawls_queued();
}

}  // namespace parley
