// parley admin audit list | verify | purge: the audit log of an account, the check of every hash
// chain (exit 0 when each holds; otherwise a JSON error naming the first bad entry), and the purge
// of entries older than a year (the server also runs it daily; workers/audit_purger.h).
#include <cctype>
#include <cstdio>

#include "cli/admin_support.h"
#include "cli/commands.h"
#include "core/time_format.h"
#include "domain/audit.h"
#include "views/audit_json.h"

namespace parley {

namespace {
struct AuditArgs {
  std::string account;
  std::string actor;
  std::string action;
  std::string target_type;
  std::string target_id;
  std::string from;
  std::string to;
  std::string cursor;
  int64_t limit = 50;
  int64_t days = 365;
};

// The same filter and validation as the console's list, built from the command's options.
Result<AuditFilter> filter_of(const AuditArgs& a) {
  std::string query;
  auto add = [&](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    query += query.empty() ? "" : "&";
    query += name;
    query += '=';
    for (unsigned char ch : value) {
      if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
        query += static_cast<char>(ch);
      } else {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", ch);
        query += hex;
      }
    }
  };
  add("actor", a.actor);
  add("action", a.action);
  add("targetType", a.target_type);
  add("targetId", a.target_id);
  add("from", a.from);
  add("to", a.to);
  add("cursor", a.cursor);
  add("limit", std::to_string(a.limit));
  Request req;
  req.query = query;
  return parse_audit_filter(req, a.account);
}
}  // namespace

void add_admin_audit_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* audit = admin.add_subcommand("audit", "The audit log: who changed what, chained by hash");
  audit->require_subcommand(1);
  auto a = std::make_shared<AuditArgs>();

  auto* list = audit->add_subcommand("list", "An account's audit entries, newest first");
  list->add_option("--account", a->account, "Account id")->required();
  list->add_option("--actor", a->actor, "A member's or key's id");
  list->add_option("--action", a->action, "An action (agent.update) or a prefix (agent.)");
  list->add_option("--target-type", a->target_type, "agent, source, key, member, webhook, ...");
  list->add_option("--target-id", a->target_id, "The target's id");
  list->add_option("--from", a->from, "A day (2026-01-31) or an ISO 8601 time");
  list->add_option("--to", a->to, "A day (kept whole) or an ISO 8601 time (excluded)");
  list->add_option("--limit", a->limit, "1 to 100")->capture_default_str();
  list->add_option("--cursor", a->cursor, "nextCursor of the previous page");
  list->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto filter, filter_of(*a));
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto rows, AuditRepo::list(c, filter));
        return audit_page_json(std::move(rows), filter.limit, a->account);
      });
    };
  });

  auto* verify = audit->add_subcommand(
      "verify", "Check every entry's hash and link; exit 1 naming the first bad entry");
  verify->add_option("--account", a->account, "Only this account's chain");
  verify->callback([&, a] {
    run = [&, a] {
      auto db = open_configured_database(global);
      if (!db.ok()) return print_error(db.error());
      std::optional<std::string> account;
      if (!a->account.empty()) account = a->account;
      auto verdict = verify_audit(**db, account);
      if (!verdict.ok()) return print_error(verdict.error());
      if (verdict->ok) {
        print_json(audit_verdict_json(*verdict));
        return 0;
      }
      JsonWriter w;
      w.begin_object().key("error").begin_object();
      w.key("code").string("audit_chain_broken");
      w.key("message").string(verdict->message);
      w.key("verdict").raw(audit_verdict_json(*verdict));
      w.end_object().end_object();
      std::fprintf(stderr, "%s\n", w.str().c_str());
      return 1;
    };
  });

  auto* purge = audit->add_subcommand("purge", "Delete entries older than --days (365)");
  purge->add_option("--days", a->days, "Entries kept, in days (at least 1)")->capture_default_str();
  purge->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        if (a->days < 1) return ApiError::invalid("'--days' must be at least 1.");
        PARLEY_ASSIGN_OR_RETURN(int64_t removed,
                                purge_audit(s.db, s.clock, a->days * 86'400'000LL));
        JsonWriter w;
        w.begin_object().key("purged").integer(removed).end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
