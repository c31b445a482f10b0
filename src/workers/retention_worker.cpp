#include "workers/retention_worker.h"

#include "core/log.h"
#include "domain/retention.h"
#include "store/worker_lease_repo.h"

namespace parley {

namespace {
constexpr std::string_view kLease = "retention";
}

RetentionWorker::RetentionWorker(Services services, RetentionOptions options)
    : services_(services),
      options_(options),
      owner_(new_id(services.random, "node_")),
      every_interval_(std::chrono::milliseconds(options.interval_ms), [this] { run(); }) {}

RetentionWorker::~RetentionWorker() { stopping_ = true; }

bool RetentionWorker::hold_lease() {
  if (stopping_) return false;
  const int64_t now = services_.clock.now_ms();
  bool held = false;
  auto claimed = services_.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(
        held, WorkerLeaseRepo::claim(c, kLease, owner_, now, now + options_.lease_ms));
    return {};
  });
  return claimed.ok() && held;
}

void RetentionWorker::run() {
  RetentionPass pass;
  pass.batch = options_.batch;
  pass.keep_going = [this] { return hold_lease(); };
  auto purged = purge_expired_conversations(services_, pass);
  if (!purged.ok()) {
    log_warn("retention purge failed", {{"error", std::string_view(purged.error().message)}});
  } else if (purged->conversations > 0) {
    log_info("retention purge", {{"conversations", purged->conversations},
                                 {"messages", purged->messages},
                                 {"events", purged->events},
                                 {"deliveries", purged->deliveries}});
  }
  (void)services_.db.write(
      [&](Connection& c) { return WorkerLeaseRepo::release(c, kLease, owner_); });
}

}  // namespace parley
