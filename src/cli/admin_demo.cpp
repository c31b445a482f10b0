// parley admin demo: on an empty database, creates a demo account (plan starter), one agent with a
// sample knowledge base (cli/demo_knowledge.h: queued, and trained by the server once it runs) and
// one all-scopes key, and an owner who signs in to the dashboard; prints the key once with a ready
// curl line that asks the agent a question its knowledge answers, and the owner's email and random
// password once. On a database that already has accounts it does nothing and says so.
#include "cli/admin_json.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "cli/demo_knowledge.h"
#include "core/json.h"
#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/keys.h"
#include "domain/members.h"
#include "domain/sources.h"

namespace parley {

namespace {
constexpr std::string_view kDemoOwnerEmail = "demo@example.com";
}  // namespace

void add_admin_demo_command(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto base_url = std::make_shared<std::string>("http://127.0.0.1:8080");
  auto* demo = admin.add_subcommand("demo", "Create a demo account, agent and key on an empty database");
  demo->add_option("--base-url", *base_url, "Where the server will listen, for the printed curl line")
      ->capture_default_str();
  demo->callback([&, base_url] {
    run = [&, base_url] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto accounts, AccountRepo::list(c));
        if (!accounts.empty()) return std::string(R"({"created":false,"reason":"the database already has accounts"})");
        PARLEY_ASSIGN_OR_RETURN(auto account, create_account(s, "Demo", "starter"));
        PARLEY_ASSIGN_OR_RETURN(auto agent, create_agent(s, account.id, "Demo agent", false,
                                                         R"({"showSources":true,"followUps":true})"));
        for (const DemoSource& d : demo_knowledge()) {
          NewSource source;
          if (d.question.empty()) {
            source.type = "text";
            source.title = std::string(d.title);
            source.content = std::string(d.content);
          } else {
            source.type = "qa";
            source.question = std::string(d.question);
            source.answer = std::string(d.answer);
          }
          PARLEY_TRY(add_source(s, account.id, agent.id, source, nullptr));
        }
        PARLEY_ASSIGN_OR_RETURN(auto key, create_api_key(s, account.id, "Demo key", std::nullopt));
        // The dashboard's owner: signs in at the base URL with this email and a random password.
        NewMember owner{account.id, std::string(kDemoOwnerEmail), "owner", std::string("Demo"),
                        random_base62(s.random, 16)};
        PARLEY_ASSIGN_OR_RETURN(auto member, create_member(s, owner));
        JsonWriter body;
        body.begin_object().key("message").string(kDemoQuestion).end_object();
        std::string curl = "curl -s -H 'Authorization: Bearer " + key.plaintext +
                           "' -H 'Content-Type: application/json' -d '" + body.str() + "' " + *base_url +
                           "/api/v1/agents/" + agent.id + "/chat";
        std::fprintf(stderr,
                     "\nDemo API key (shown once, store it now):\n  %s\nTry:\n  %s\n"
                     "Dashboard: %s/ (sign in as %s with the password %s, shown once)\n\n",
                     key.plaintext.c_str(), curl.c_str(), base_url->c_str(), owner.email.c_str(),
                     owner.password->c_str());
        JsonWriter w;
        w.begin_object();
        w.key("created").boolean(true);
        w.key("account");
        write_account_admin_json(w, account);
        w.key("agent");
        write_agent_admin_json(w, agent);
        w.key("key");
        write_key_admin_json(w, key.record, key.plaintext);
        w.key("curl").string(curl);
        w.key("dashboard").begin_object();
        w.key("url").string(*base_url + "/");
        w.key("email").string(owner.email);
        w.key("password").string(*owner.password);
        w.key("memberId").string(member.record.id);
        w.end_object();
        w.end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
