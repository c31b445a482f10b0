// parley admin webhook add | list | deliveries | pause | resume | enable | remove: dashboard
// webhooks, the delivery history of any webhook, and enabling one disabled after failing.
#include "cli/admin_audited.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/audit_snapshots.h"
#include "store/webhook_repo.h"
#include "webhooks/delivery_operations.h"
#include "webhooks/subscriptions.h"

namespace parley {

namespace {
struct WebhookArgs {
  std::string agent, url, events, source = "api", id;
  int64_t limit = 20;
  bool allow_private = false;
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    std::string item =
        s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// The subscription as operators see it: origin, pause state and subscribing key, never the secret.
void write_admin_webhook(JsonWriter& w, const WebhookRecord& h) {
  w.begin_object();
  w.key("id").string(h.id).key("agentId").string(h.agent_id).key("url").string(h.url);
  w.key("events").begin_array();
  for (const auto& e : h.events) w.string(e);
  w.end_array();
  w.key("source").string(h.source).key("origin").string(h.origin).key("keyId").string_or_null(
      h.key_id);
  w.key("paused").boolean(h.paused).key("status").string(h.status());
  w.key("disabledReason").string_or_null(h.disabled_reason);
  w.key("failingSince").timestamp_or_null(h.failing_since);
  w.key("createdAt").timestamp(h.created_at);
  w.end_object();
}

void write_delivery(JsonWriter& w, const DeliveryRecord& d,
                    const std::vector<AttemptRecord>& attempts) {
  w.begin_object();
  w.key("id").string(d.id).key("webhookId").string(d.webhook_id).key("event").string(d.event);
  w.key("eventId")
      .string(d.event_id)
      .key("status")
      .string(d.status)
      .key("attempts")
      .integer(d.attempts);
  w.key("nextAttemptAt")
      .timestamp_or_null(d.status == "pending" ? d.next_attempt_at : std::nullopt);
  w.key("createdAt").timestamp(d.created_at).key("completedAt").timestamp_or_null(d.completed_at);
  w.key("history").begin_array();
  for (const auto& a : attempts) {
    w.begin_object().key("attempt").integer(a.attempt).key("startedAt").timestamp(a.started_at);
    w.key("durationMs").integer(a.duration_ms).key("succeeded").boolean(a.succeeded);
    w.key("responseCode");
    if (a.response_code)
      w.integer(*a.response_code);
    else
      w.null();
    w.key("error").string_or_null(a.error).end_object();
  }
  w.end_array();
  w.end_object();
}
}  // namespace

void add_admin_webhook_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* webhook =
      admin.add_subcommand("webhook", "Webhooks: dashboard-added ones and delivery history");
  webhook->require_subcommand(1);
  auto a = std::make_shared<WebhookArgs>();

  auto* add =
      webhook->add_subcommand("add", "Add a webhook as the dashboard does; prints its secret once");
  add->add_option("--agent", a->agent, "Agent id")->required();
  add->add_option("--url", a->url, "https:// URL of a public server")->required();
  add->add_option("--events", a->events, "Comma-separated events")->required();
  add->add_option("--source", a->source, "tool_a, tool_b or api");
  add->add_flag("--allow-private-targets", a->allow_private,
                "Accept private addresses (tests only)")
      ->envname("PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS");
  add->callback([&, a] {
    run = [&, a] {
      return run_admin_audited(
          global,
          {.rule = {"webhook.create", "webhook", audit_webhook_snapshot},
           .account_of = account_of_webhook},
          [&](Services& s) -> Result<std::string> {
            SystemResolver resolver;
            NewWebhook in{a->agent,  a->url,      split_list(a->events),
                          a->source, "dashboard", std::nullopt};
            PARLEY_ASSIGN_OR_RETURN(
                auto h, subscribe_webhook(s, {resolver, a->allow_private}, {}, std::move(in)));
            JsonWriter w;
            write_webhook_json(w, h, /*with_secret=*/true);
            return w.str();
          });
    };
  });

  auto* list = webhook->add_subcommand("list", "List an agent's webhooks (without secrets)");
  list->add_option("--agent", a->agent, "Agent id")->required();
  list->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto hooks, WebhookRepo::list_for_agent(c, a->agent));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& h : hooks) write_admin_webhook(w, h);
        w.end_array().end_object();
        return w.str();
      });
    };
  });

  auto* deliveries =
      webhook->add_subcommand("deliveries", "A webhook's latest deliveries with every attempt");
  deliveries->add_option("id", a->id, "Webhook id")->required();
  deliveries->add_option("--limit", a->limit, "How many, newest first")->check(CLI::Range(1, 1000));
  deliveries->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto hook, WebhookRepo::find_any(c, a->id));
        if (!hook) return ApiError::not_found("No webhook " + a->id + ".");
        PARLEY_ASSIGN_OR_RETURN(auto list, WebhookRepo::list_deliveries(c, a->id, a->limit));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        PARLEY_ASSIGN_OR_RETURN(auto views, with_attempts(c, std::move(list)));
        for (const auto& v : views) write_delivery(w, v.delivery, v.attempts);
        w.end_array().end_object();
        return w.str();
      });
    };
  });

  auto* remove = webhook->add_subcommand("remove", "Delete any webhook with its delivery history");
  remove->add_option("id", a->id, "Webhook id")->required();
  remove->callback([&, a] {
    run = [&, a] {
      return run_admin_audited(
          global,
          {.rule = {"webhook.delete", "webhook", audit_webhook_snapshot},
           .target_id = a->id,
           .account_of = account_of_webhook},
          [&](Services& s) -> Result<std::string> {
            PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
              PARLEY_ASSIGN_OR_RETURN(bool removed, WebhookRepo::remove(c, a->id));
              if (!removed) return ApiError::not_found("No webhook " + a->id + ".");
              return {};
            }));
            JsonWriter w;
            w.begin_object().key("id").string(a->id).key("deleted").boolean(true).end_object();
            return w.str();
          });
    };
  });

  auto* enable = webhook->add_subcommand(
      "enable", "Turn on a webhook disabled after failing; its waiting deliveries resume");
  enable->add_option("id", a->id, "Webhook id")->required();
  enable->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto any, [&]() -> Result<std::optional<WebhookRecord>> {
          PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
          return WebhookRepo::find_any(c, a->id);
        }());
        if (!any) return ApiError::not_found("No webhook " + a->id + ".");
        PARLEY_ASSIGN_OR_RETURN(
            auto h, enable_webhook(s, any->account_id, a->id, WebhookReach::kAnyOfAccount));
        JsonWriter w;
        write_admin_webhook(w, h);
        return w.str();
      });
    };
  });

  for (bool pause : {true, false}) {
    auto* cmd = webhook->add_subcommand(
        pause ? "pause" : "resume",
        pause ? "Stop sending to a webhook" : "Send to a paused webhook again");
    cmd->add_option("id", a->id, "Webhook id")->required();
    cmd->callback([&, a, pause] {
      run = [&, a, pause] {
        return run_admin(global, [&](Services& s) -> Result<std::string> {
          PARLEY_ASSIGN_OR_RETURN(auto h, set_webhook_paused(s, a->id, pause));
          JsonWriter w;
          write_admin_webhook(w, h);
          return w.str();
        });
      };
    });
  }
}

}  // namespace parley
