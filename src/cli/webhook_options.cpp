#include "cli/webhook_options.h"

namespace parley {

void add_webhook_serve_options(CLI::App& cmd, WebhookServiceOptions& o) {
  cmd.add_flag(
         "--webhook-allow-private-targets", o.allow_private_targets,
         "Let webhooks target private and loopback addresses (tests and local development only)")
      ->envname("PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS");
  cmd.add_option(
         "--webhook-extra-ca-file", o.extra_ca_file,
         "PEM CA certificate trusted for webhook deliveries besides the system's (tests only)")
      ->envname("PARLEY_WEBHOOK_EXTRA_CA_FILE");
  cmd.add_option("--webhook-retry-schedule", o.retry_schedule,
                 "Waits before each webhook retry, e.g. 5s,5m,30m,2h,5h,10h,10h")
      ->envname("PARLEY_WEBHOOK_RETRY_SCHEDULE")
      ->capture_default_str();
  cmd.add_option("--webhook-poll-ms", o.poll_ms,
                 "How often the delivery worker looks for work when idle")
      ->envname("PARLEY_WEBHOOK_POLL_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--webhook-timeout-ms", o.timeout_ms, "Time limit of one webhook delivery attempt")
      ->envname("PARLEY_WEBHOOK_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--webhook-lease-ms", o.lease_ms,
                 "How long a node's claim on a webhook delivery lasts; a delivery claimed by a node that "
                 "died is sent by another after this (at least 3 x --webhook-timeout-ms; default 60000 or "
                 "that, whichever is longer)")
      ->envname("PARLEY_WEBHOOK_LEASE_MS")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--webhook-concurrency", o.concurrency, "Webhook deliveries sent at the same time")
      ->envname("PARLEY_WEBHOOK_CONCURRENCY")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--webhook-concurrency-per-endpoint", o.concurrency_per_endpoint,
                 "Delivery attempts in flight to one webhook at most")
      ->envname("PARLEY_WEBHOOK_CONCURRENCY_PER_ENDPOINT")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--webhook-concurrency-per-account", o.concurrency_per_account,
                 "Delivery attempts in flight to one account's webhooks at most")
      ->envname("PARLEY_WEBHOOK_CONCURRENCY_PER_ACCOUNT")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

}  // namespace parley
