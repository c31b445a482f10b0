#include "workers/webhook_disable_mail.h"

#include "core/log.h"
#include "core/time_format.h"
#include "store/agent_repo.h"
#include "store/member_repo.h"

namespace parley {

MailMessage compose_webhook_disabled_mail(const DisabledWebhookMail& mail) {
  const WebhookRecord& h = mail.webhook;
  int64_t at = h.disabled_at.value_or(0);
  MailMessage m;
  m.to = mail.to;
  m.subject = "Webhook disabled: " + mail.agent_name;
  m.date_ms = at;
  m.message_id = h.id + "." + std::to_string(at) + "@parley";
  std::string body;
  body += "A webhook of the agent " + mail.agent_name +
          " was disabled because every attempt to deliver to it failed.\n\n";
  body += "Webhook: " + h.id + "\n";
  body += "URL: " + h.url + "\n";
  body +=
      "Added: " + std::string(h.origin == "api" ? "through the API" : "in the dashboard") + "\n";
  if (h.failing_since) body += "Failing since: " + format_timestamp(*h.failing_since) + "\n";
  body += "Disabled at: " + format_timestamp(at) + "\n";
  body += "Reason: " + h.disabled_reason.value_or("") + "\n\n";
  body +=
      "While it is disabled, new events are not sent to it (the API lists them), and the "
      "deliveries that were waiting for a retry wait.\n";
  body += "Once the endpoint answers again, enable the webhook in the dashboard";
  if (h.origin == "api") body += " or with POST /api/v1/webhooks/" + h.id + "/enable";
  body += ": the waiting deliveries resume and new events are sent.\n";
  m.body = std::move(body);
  return m;
}

void WebhookDisableMail::webhook_disabled(const std::string& webhook_id) {
  std::optional<WebhookRecord> hook;
  std::optional<AgentRecord> agent;
  std::vector<MemberRecord> owners;
  auto read = [&]() -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(Connection& c, db_.read());
    PARLEY_ASSIGN_OR_RETURN(hook, WebhookRepo::find_any(c, webhook_id));
    if (!hook || !hook->disabled_at) return {};  // removed or enabled meanwhile
    PARLEY_ASSIGN_OR_RETURN(agent, AgentRepo::find_any(c, hook->agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto members, MemberRepo::list(c, hook->account_id));
    for (auto& m : members)
      if (m.role == "owner") owners.push_back(std::move(m));
    return {};
  };
  if (auto r = read(); !r.ok()) {
    log_error("webhook_disabled_mail_failed", {{"webhookId", std::string_view(webhook_id)},
                                               {"error", std::string_view(r.error().message)}});
    return;
  }
  if (!hook || !hook->disabled_at) return;
  std::string_view account = hook->account_id;
  if (mailer_ == nullptr || !mailer_->configured()) {
    log_warn("webhook_disabled_mail_not_sent",
             {{"webhookId", std::string_view(webhook_id)},
              {"accountId", account},
              {"reason", std::string_view("mail is not configured")}});
    return;
  }
  if (owners.empty()) {
    log_warn("webhook_disabled_mail_not_sent",
             {{"webhookId", std::string_view(webhook_id)},
              {"accountId", account},
              {"reason", std::string_view("the account has no owner")}});
    return;
  }
  int64_t sent = 0;
  for (const auto& owner : owners) {
    DisabledWebhookMail mail{owner.email, agent ? agent->name : hook->agent_id, *hook};
    if (mailer_->send(compose_webhook_disabled_mail(mail)).ok()) ++sent;
  }
  if (sent == static_cast<int64_t>(owners.size())) {
    log_info(
        "webhook_disabled_mail_sent",
        {{"webhookId", std::string_view(webhook_id)}, {"accountId", account}, {"owners", sent}});
  } else {
    log_error("webhook_disabled_mail_failed", {{"webhookId", std::string_view(webhook_id)},
                                               {"accountId", account},
                                               {"owners", static_cast<int64_t>(owners.size())},
                                               {"sent", sent}});
  }
}

}  // namespace parley
