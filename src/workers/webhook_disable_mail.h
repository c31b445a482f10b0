// Tells an account's owners by mail that the delivery worker disabled one of its webhooks after
// every attempt failed for days: which agent and webhook, where it pointed, since when it failed,
// the last error, and how to enable it again. Without mail configured (or without owners) the
// disable is logged only; a mail that cannot be sent is logged and not tried again (the webhook's
// status and reason stay visible in the dashboard and the API). Never writes the signing secret.
// Thread-safe: webhook_disabled() may run on several threads at once.
#pragma once

#include <string>
#include <vector>

#include "core/clock.h"
#include "engine/mailer.h"
#include "store/db.h"
#include "store/webhook_repo.h"
#include "workers/delivery_worker.h"

namespace parley {

struct DisabledWebhookMail {
  std::string to;
  std::string agent_name;
  WebhookRecord webhook;  // disabled: disabled_at, disabled_reason and failing_since set
};

// The mail as sent to one owner.
MailMessage compose_webhook_disabled_mail(const DisabledWebhookMail& mail);

class WebhookDisableMail final : public DisableListener {
 public:
  // `mailer` may be null (no mail configured); it must outlive this object.
  WebhookDisableMail(Database& db, const Mailer* mailer) : db_(db), mailer_(mailer) {}
  void webhook_disabled(const std::string& webhook_id) override;

 private:
  Database& db_;
  const Mailer* mailer_;
};

}  // namespace parley
