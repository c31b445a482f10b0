#include "workers/webhook_service.h"

#include <algorithm>

#include "core/log.h"

namespace parley {

Result<std::unique_ptr<WebhookService>> WebhookService::create(Database& db, const Clock& clock,
                                                               Random& random,
                                                               const WebhookServiceOptions& options,
                                                               const Mailer* mailer) {
  PARLEY_ASSIGN_OR_RETURN(auto schedule, parse_retry_schedule(options.retry_schedule));
  // A claimed delivery waits for a sender up to about twice the attempt timeout, then is sent.
  int64_t lease_ms = options.lease_ms > 0 ? options.lease_ms : std::max<int64_t>(60'000, 3 * options.timeout_ms);
  if (lease_ms < 3 * options.timeout_ms) {
    return ApiError::invalid("--webhook-lease-ms must be at least three times --webhook-timeout-ms (" +
                             std::to_string(3 * options.timeout_ms) + ")");
  }
  std::unique_ptr<WebhookService> service(new WebhookService(options.allow_private_targets));
  CurlSenderOptions sender_options;
  sender_options.allow_private_targets = options.allow_private_targets;
  PARLEY_ASSIGN_OR_RETURN(sender_options.ca_bundle, read_ca_bundle(options.extra_ca_file));
  sender_options.timeout_ms = options.timeout_ms;
  sender_options.connect_timeout_ms = std::min<int64_t>(5000, options.timeout_ms);
  service->sender_ = std::make_unique<CurlSender>(service->resolver_, std::move(sender_options));
  DeliveryOptions delivery;
  delivery.retry_schedule_ms = std::move(schedule);
  delivery.poll_ms = options.poll_ms;
  delivery.lease_ms = lease_ms;
  delivery.concurrency = std::max<size_t>(1, options.concurrency);
  delivery.fair_share.per_webhook = std::max<size_t>(1, options.concurrency_per_endpoint);
  delivery.fair_share.per_account = std::max<size_t>(1, options.concurrency_per_account);
  service->disable_mail_ = std::make_unique<WebhookDisableMail>(db, mailer);
  service->worker_ = std::make_unique<DeliveryWorker>(
      db, clock, random, *service->sender_, std::move(delivery), service->disable_mail_.get());
  if (options.allow_private_targets) {
    log_warn("webhooks may target private addresses (tests and local development only)");
  }
  return service;
}

}  // namespace parley
