// parley admin lead create: a form or chat lead, saved as those features would save it (one lead
// per person; the agent's contact for it; the lead.created event).
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/conversation_admin.h"
#include "domain/lead_admin.h"
#include "domain/leads.h"
#include "store/agent_repo.h"
#include "views/lead_json.h"

namespace parley {

namespace {
struct LeadArgs {
  std::string agent;
  std::string source = "form";
  std::string email;
  std::string phone;
  std::string name;
  std::string form_id;
  std::string custom_fields = "[]";
  std::string conversation;
  std::string at;
};
}  // namespace

void add_admin_lead_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* lead = admin.add_subcommand("lead", "Leads");
  lead->require_subcommand(1);
  auto a = std::make_shared<LeadArgs>();

  auto* create = lead->add_subcommand(
      "create", "Save a lead (again for the same person: one more submission)");
  create->add_option("--agent", a->agent, "Agent id")->required();
  create->add_option("--source", a->source, "form or chat")->capture_default_str();
  create->add_option("--email", a->email, "Email");
  create->add_option("--phone", a->phone, "Phone");
  create->add_option("--name", a->name, "Name");
  create->add_option("--form-id", a->form_id, "Id of the form in the agent's `forms` setting");
  create->add_option("--custom-fields", a->custom_fields, "JSON array of {id, value}");
  create->add_option("--conversation", a->conversation, "Conversation the lead came from");
  create->add_option("--at", a->at, "ISO 8601 time or milliseconds since the epoch (default: now)");
  create->callback([&, a, create] {
    run = [&, a, create] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        auto given = [&](const char* option, const std::string& value) {
          return create->count(option) ? std::optional<std::string>(value) : std::nullopt;
        };
        NewLead in;
        in.agent_id = a->agent;
        in.source = a->source;
        in.email = given("--email", a->email);
        in.phone = given("--phone", a->phone);
        in.name = given("--name", a->name);
        in.form_id = given("--form-id", a->form_id);
        in.custom_fields = a->custom_fields;
        in.conversation_id = given("--conversation", a->conversation);
        if (create->count("--at")) {
          PARLEY_ASSIGN_OR_RETURN(in.at, parse_time_argument(a->at, "--at"));
        }
        PARLEY_ASSIGN_OR_RETURN(auto saved, admin_save_lead(s, in));
        PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, a->agent));
        FormLabels labels(parse_agent_settings(agent ? agent->settings : "{}"));
        JsonWriter w;
        w.begin_object().key("created").boolean(saved.created).key("data");
        write_lead_json(w, saved.lead, labels);
        w.end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
