// parley admin key create | list | revoke
#include "cli/admin_audited.h"
#include "cli/admin_json.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/audit_snapshots.h"
#include "domain/keys.h"

namespace parley {

namespace {
struct KeyArgs {
  std::string id;
  std::string account;
  std::string name;
  std::string scopes;
};
}  // namespace

void add_admin_key_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* key = admin.add_subcommand("key", "API keys");
  key->require_subcommand(1);
  auto k = std::make_shared<KeyArgs>();

  auto* create = key->add_subcommand("create", "Create an API key; prints it once");
  create->add_option("--account", k->account, "Account id")->required();
  create->add_option("--name", k->name, "Key name")->required();
  create->add_option("--scopes", k->scopes,
                     "Comma-separated scopes; omitted: every scope, future ones included");
  create->callback([&, k, create] {
    run = [&, k, create] {
      return run_admin_audited(
          global, {.rule = {"key.create", "key", audit_key_snapshot}, .account_id = k->account},
          [&](Services& s) -> Result<std::string> {
            std::optional<ScopeMask> scopes;
            if (create->count("--scopes")) {
              std::string unknown;
              scopes = parse_scope_list(k->scopes, &unknown);
              if (!scopes) {
                std::string all;
                for (auto n : all_scope_names()) all += (all.empty() ? "" : ", ") + std::string(n);
                return ApiError::invalid("Unknown scope '" + unknown + "'. Scopes: " + all + ".");
              }
            }
            PARLEY_ASSIGN_OR_RETURN(auto created, create_api_key(s, k->account, k->name, scopes));
            JsonWriter w;
            write_key_admin_json(w, created.record, created.plaintext);
            return w.str();
          });
    };
  });

  auto* list = key->add_subcommand("list", "List an account's keys (never the keys themselves)");
  list->add_option("--account", k->account, "Account id")->required();
  list->callback([&, k] {
    run = [&, k] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto keys, list_api_keys(s, k->account));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& x : keys) write_key_admin_json(w, x);
        w.end_array().end_object();
        return w.str();
      });
    };
  });

  auto* revoke = key->add_subcommand("revoke", "Revoke a key (irreversible)");
  revoke->add_option("id", k->id, "Key id")->required();
  revoke->callback([&, k] {
    run = [&, k] {
      return run_admin_audited(global,
                               {.rule = {"key.revoke", "key", audit_key_snapshot},
                                .target_id = k->id,
                                .account_of = account_of_key},
                               [&](Services& s) -> Result<std::string> {
                                 PARLEY_ASSIGN_OR_RETURN(auto key, revoke_api_key(s, k->id));
                                 JsonWriter w;
                                 write_key_admin_json(w, key);
                                 return w.str();
                               });
    };
  });
}

}  // namespace parley
