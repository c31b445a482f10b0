// parley admin demo: on an empty database, creates a demo account (plan starter), one agent with a
// sample knowledge base (cli/demo_knowledge.h: queued, and trained by the server once it runs) and
// one all-scopes key, and an owner who signs in to the dashboard; prints the key once with a ready
// curl line that asks the agent a question its knowledge answers, and the owner's email and random
// password once. On a database that already has accounts it creates nothing and says so.
// With --llm-model (`make run` passes LLM_MODEL when LLM_BASE_URL is set, and gives the server
// that provider as its default) the demo agent answers on the `openai` engine with that model
// (and --llm-embedding-model for hybrid retrieval), on a new database or an existing one, whose
// demo agent is updated (audited as an `agent.update` by the admin CLI). With --no-llm (no
// provider configured at all) a demo agent left on the `openai` engine without a provider of its
// own goes back to the built-in engine, so it answers again.
#include "cli/admin_audited.h"
#include "cli/admin_json.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "cli/demo_knowledge.h"
#include "core/json.h"
#include "domain/accounts.h"
#include "domain/agent_settings.h"
#include "domain/agents.h"
#include "domain/audit_snapshots.h"
#include "domain/keys.h"
#include "domain/members.h"
#include "domain/sources.h"
#include "store/member_repo.h"

namespace parley {

namespace {
constexpr std::string_view kDemoOwnerEmail = "demo@example.com";
constexpr std::string_view kDemoAgentName = "Demo agent";

struct DemoArgs {
  std::string base_url = "http://127.0.0.1:8080";
  std::string llm_model;
  std::string llm_embedding_model;
  bool no_llm = false;
};

// The settings update that puts the demo agent on the `openai` engine with the server's default
// provider and the given models; nothing when no model is given.
std::optional<std::string> llm_settings(const DemoArgs& a) {
  if (a.llm_model.empty()) return std::nullopt;
  JsonWriter w;
  w.begin_object().key("engine").string("openai").key("llm").begin_object();
  w.key("model").string(a.llm_model);
  if (!a.llm_embedding_model.empty()) w.key("embeddingModel").string(a.llm_embedding_model);
  w.end_object().end_object();
  return w.str();
}

// The demo agent of a database `admin demo` filled earlier: the agent named "Demo agent" of the
// demo owner's account; nothing when someone removed either.
Result<std::optional<AgentRecord>> find_demo_agent(Connection& c) {
  PARLEY_ASSIGN_OR_RETURN(auto owner, MemberRepo::find_by_email(c, kDemoOwnerEmail));
  if (!owner) return std::optional<AgentRecord>();
  PARLEY_ASSIGN_OR_RETURN(auto agents, AgentRepo::list(c, owner->account_id));
  for (auto& agent : agents)
    if (agent.name == kDemoAgentName) return std::optional<AgentRecord>(std::move(agent));
  return std::optional<AgentRecord>();
}

// What changes on an existing database's demo agent: the LLM settings, or back to the built-in
// engine when it relied on a default provider that is gone; nothing otherwise.
std::optional<std::string> update_for(const DemoArgs& a, const AgentRecord& agent) {
  if (auto llm = llm_settings(a)) return llm;
  if (!a.no_llm) return std::nullopt;
  const AgentSettings settings = parse_agent_settings(agent.settings);
  if (settings.reply.engine != "openai" || !settings.llm.base_url.empty()) return std::nullopt;
  return std::string(R"({"engine":"retrieval"})");
}

Result<std::string> update_existing(Services& s, const DemoArgs& a) {
  std::optional<AgentRecord> agent;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(agent, find_demo_agent(c));
  }
  const std::optional<std::string> update = agent ? update_for(a, *agent) : std::nullopt;
  JsonWriter w;
  w.begin_object().key("created").boolean(false);
  w.key("reason").string("the database already has accounts");
  // "updated" only when an LLM option asked for a change, so the plain answer stays as it was.
  if (!a.llm_model.empty() || a.no_llm) w.key("updated").boolean(update.has_value());
  if (update) {
    AgentChanges changes;
    changes.settings_update = *update;
    PARLEY_TRY(run_audited(s,
                           {.rule = {"agent.update", "agent", audit_agent_snapshot},
                            .target_id = agent->id,
                            .account_id = agent->account_id},
                           [&](Services& audited) -> Result<std::string> {
                             PARLEY_ASSIGN_OR_RETURN(*agent,
                                                     update_agent(audited, agent->id, changes));
                             return std::string("{}");
                           }));
    w.key("agent");
    write_agent_admin_json(w, *agent);
    std::fprintf(
        stderr, "\nDemo agent %s: engine %s.\n\n", agent->id.c_str(),
        a.llm_model.empty() ? "retrieval (built-in)" : ("openai, model " + a.llm_model).c_str());
  }
  w.end_object();
  return w.str();
}

Result<std::string> create_demo(Services& s, const DemoArgs& a) {
  PARLEY_ASSIGN_OR_RETURN(auto account, create_account(s, "Demo", "starter"));
  PARLEY_ASSIGN_OR_RETURN(std::string settings,
                          merge_agent_settings(R"({"showSources":true,"followUps":true})",
                                               llm_settings(a).value_or("{}")));
  PARLEY_ASSIGN_OR_RETURN(auto agent, create_agent(s, account.id, kDemoAgentName, false, settings));
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
                     "' -H 'Content-Type: application/json' -d '" + body.str() + "' " + a.base_url +
                     "/api/v1/agents/" + agent.id + "/chat";
  std::fprintf(stderr,
               "\nDemo API key (shown once, store it now):\n  %s\nTry:\n  %s\n"
               "Dashboard: %s/ (sign in as %s with the password %s, shown once)\n\n",
               key.plaintext.c_str(), curl.c_str(), a.base_url.c_str(), owner.email.c_str(),
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
  w.key("url").string(a.base_url + "/");
  w.key("email").string(owner.email);
  w.key("password").string(*owner.password);
  w.key("memberId").string(member.record.id);
  w.end_object();
  w.end_object();
  return w.str();
}
}  // namespace

void add_admin_demo_command(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto a = std::make_shared<DemoArgs>();
  auto* demo =
      admin.add_subcommand("demo", "Create a demo account, agent and key on an empty database");
  demo->add_option("--base-url", a->base_url,
                   "Where the server will listen, for the printed curl line")
      ->capture_default_str();
  auto* model = demo->add_option(
      "--llm-model", a->llm_model,
      "Put the demo agent on the openai engine with this model of the server's default provider");
  demo->add_option("--llm-embedding-model", a->llm_embedding_model,
                   "With --llm-model: the provider's embedding model for hybrid retrieval")
      ->needs(model);
  demo->add_flag("--no-llm", a->no_llm,
                 "No provider is configured: a demo agent on the openai engine without a "
                 "provider of its own goes back to the built-in engine")
      ->excludes(model);
  demo->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto accounts, AccountRepo::list(c));
        if (!accounts.empty()) return update_existing(s, *a);
        return create_demo(s, *a);
      });
    };
  });
}

}  // namespace parley
