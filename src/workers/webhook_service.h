// Everything `parley serve` runs for webhooks, built from its options: the resolver and URL
// policy the subscribe endpoint uses, the libcurl sender, the delivery worker and the mail to an
// account's owners when the worker disables one of its webhooks. Owned by the serve command for
// the life of the server; start/stop from that thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/random.h"
#include "engine/mailer.h"
#include "net/http_sender.h"
#include "store/db.h"
#include "webhooks/subscriptions.h"
#include "workers/delivery_worker.h"
#include "workers/webhook_disable_mail.h"

namespace parley {

struct WebhookServiceOptions {
  bool allow_private_targets = false;  // tests and local development only
  std::string extra_ca_file;           // tests only: a PEM CA trusted besides the system's
  std::string retry_schedule = "5s,5m,30m,2h,5h,10h,10h";
  int64_t poll_ms = 100;
  int64_t timeout_ms = 10000;
  // How long a node's claim on a delivery lasts: a delivery claimed by a node that died is sent
  // by another after this. Must leave room for a claimed delivery's wait and its attempt: at
  // least three attempt timeouts. 0: 60 s, or three attempt timeouts when that is longer.
  int64_t lease_ms = 0;
  size_t concurrency = 32;
  size_t concurrency_per_endpoint = 4;  // attempts in flight to one webhook at most
  size_t concurrency_per_account = 8;   // attempts in flight to one account's webhooks at most
};

class WebhookService {
 public:
  // Fails on a malformed retry schedule or an unreadable CA file. `mailer` (may be null: no
  // mail) tells owners of disabled webhooks; it must outlive the service.
  static Result<std::unique_ptr<WebhookService>> create(Database& db, const Clock& clock,
                                                        Random& random,
                                                        const WebhookServiceOptions& options,
                                                        const Mailer* mailer = nullptr);
  ~WebhookService() { stop(); }

  WebhookPolicy& policy() { return policy_; }
  void start() { worker_->start(); }
  // Stops the worker once the deliveries in flight are recorded.
  void stop() {
    if (worker_) worker_->stop();
  }

 private:
  explicit WebhookService(bool allow_private) : policy_{resolver_, allow_private} {}

  SystemResolver resolver_;
  WebhookPolicy policy_;
  std::unique_ptr<CurlSender> sender_;
  std::unique_ptr<WebhookDisableMail> disable_mail_;  // before the worker, which uses it
  std::unique_ptr<DeliveryWorker> worker_;
};

}  // namespace parley
