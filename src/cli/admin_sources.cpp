// parley admin source add | list: operators add sources of any type from text already fetched
// (website pages, files, workspace pages), and list an agent's sources with their training state.
// (crawl and refresh are in admin_crawls.cpp.)
// A running server's trainer picks up added sources within its poll interval.
#include "cli/admin_audited.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/audit_snapshots.h"
#include "domain/sources.h"
#include "store/agent_repo.h"
#include "views/source_json.h"

namespace parley {

namespace {
struct SourceArgs {
  std::string agent;
  NewSource source;
  std::string title, url, filename, content, question, answer;
};

std::optional<std::string> given(const CLI::App* cmd, const char* option,
                                 const std::string& value) {
  return cmd->count(option) ? std::optional<std::string>(value) : std::nullopt;
}
}  // namespace

void add_admin_source_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* source = admin.add_subcommand("source", "Knowledge sources of agents");
  source->require_subcommand(1);
  auto a = std::make_shared<SourceArgs>();
  add_admin_crawl_commands(*source, global, run);

  auto* add = source->add_subcommand("add", "Add a source (any type) to an agent");
  add->add_option("--agent", a->agent, "Agent id")->required();
  add->add_option("--type", a->source.type, "text, qa, website, file or workspace")->required();
  add->add_option("--title", a->title, "Title");
  add->add_option("--url", a->url, "Address of a website page");
  add->add_option("--filename", a->filename, "Name of a file");
  add->add_option("--content", a->content, "The text");
  add->add_option("--question", a->question, "Question of a qa pair");
  add->add_option("--answer", a->answer, "Answer of a qa pair");
  add->callback([&, a, add] {
    run = [&, a, add] {
      return run_admin_audited(
          global,
          {.rule = {"source.create", "source", audit_source_snapshot},
           .parent_id = a->agent,
           .account_of = [a](Connection& c,
                             std::string_view) { return account_of_agent(c, a->agent); }},
          [&](Services& s) -> Result<std::string> {
            NewSource n = a->source;
            n.title = given(add, "--title", a->title);
            n.url = given(add, "--url", a->url);
            n.filename = given(add, "--filename", a->filename);
            n.content = given(add, "--content", a->content);
            n.question = given(add, "--question", a->question);
            n.answer = given(add, "--answer", a->answer);
            PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
            PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, a->agent));
            if (!agent) return ApiError::not_found("No agent " + a->agent + ".");
            PARLEY_ASSIGN_OR_RETURN(auto added,
                                    add_source(s, agent->account_id, agent->id, n, nullptr));
            JsonWriter w;
            write_added_source_json(w, added);
            return w.str();
          });
    };
  });

  add_admin_source_upload_command(*source, global, run);

  auto* list = source->add_subcommand("list", "List an agent's sources, newest first");
  list->add_option("--agent", a->agent, "Agent id")->required();
  list->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, a->agent));
        if (!agent) return ApiError::not_found("No agent " + a->agent + ".");
        PARLEY_ASSIGN_OR_RETURN(auto listing, list_sources(c, agent->account_id, agent->id));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& x : listing.sources) write_source_json(w, x);
        w.end_array().key("training");
        write_training_json(w, listing.training);
        w.key("characters").begin_object();
        w.key("used").integer(listing.characters_used);
        w.key("limit").integer(listing.characters_limit);
        w.end_object().end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
