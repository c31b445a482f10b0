// parley admin member create | list | remove
#include "cli/admin_audited.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/audit_snapshots.h"
#include "domain/members.h"

namespace parley {

namespace {
struct MemberArgs {
  std::string id;
  std::string account;
  std::string email;
  std::string role;
  std::string name;
  std::string password;
};

void write_member_admin_json(JsonWriter& w, const MemberRecord& m, std::string_view token = {}) {
  w.begin_object();
  w.key("id").string(m.id);
  w.key("accountId").string(m.account_id);
  w.key("email").string(m.email);
  w.key("name").string_or_null(m.name);
  w.key("role").string(m.role);
  w.key("canLogIn").boolean(m.password_hash.has_value());
  w.key("createdAt").timestamp(m.created_at);
  if (!token.empty()) w.key("token").string(token);
  w.end_object();
}
}  // namespace

void add_admin_member_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* member = admin.add_subcommand("member", "Team members (console users)");
  member->require_subcommand(1);
  auto m = std::make_shared<MemberArgs>();

  auto* create =
      member->add_subcommand("create", "Add a team member; prints its member token once");
  create->add_option("--account", m->account, "Account id")->required();
  create->add_option("--email", m->email, "Email (the login name)")->required();
  create->add_option("--role", m->role, "owner, admin, editor or viewer")->required();
  create->add_option("--name", m->name, "First name");
  create->add_option("--password", m->password, "Password for console login (8 to 200 characters)")
      ->envname("PARLEY_MEMBER_PASSWORD");
  create->callback([&, m, create] {
    run = [&, m, create] {
      return run_admin_audited(
          global,
          {.rule = {"member.create", "member", audit_member_snapshot}, .account_id = m->account},
          [&](Services& s) -> Result<std::string> {
            NewMember in;
            in.account_id = m->account;
            in.email = m->email;
            in.role = m->role;
            if (create->count("--name")) in.name = m->name;
            if (!m->password.empty()) in.password = m->password;
            PARLEY_ASSIGN_OR_RETURN(auto created, create_member(s, in));
            JsonWriter w;
            write_member_admin_json(w, created.record, created.token);
            return w.str();
          });
    };
  });

  auto* list = member->add_subcommand("list", "List an account's team members, newest first");
  list->add_option("--account", m->account, "Account id")->required();
  list->callback([&, m] {
    run = [&, m] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto members, list_members(s, m->account));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& x : members) write_member_admin_json(w, x);
        w.end_array().end_object();
        return w.str();
      });
    };
  });

  auto* remove = member->add_subcommand(
      "remove", "Remove a team member; ends its sessions, keeps its API keys");
  remove->add_option("id", m->id, "Member id")->required();
  remove->callback([&, m] {
    run = [&, m] {
      return run_admin_audited(global,
                               {.rule = {"member.remove", "member", audit_member_snapshot},
                                .target_id = m->id,
                                .account_of = account_of_member},
                               [&](Services& s) -> Result<std::string> {
                                 PARLEY_ASSIGN_OR_RETURN(auto removed, remove_member(s, m->id));
                                 JsonWriter w;
                                 w.begin_object();
                                 w.key("id").string(removed.id);
                                 w.key("removed").boolean(true);
                                 w.end_object();
                                 return w.str();
                               });
    };
  });
}

}  // namespace parley
