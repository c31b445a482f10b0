// parley admin contact import | identify | erase. erase: the contact and everything of that person
// (domain/erasure.h), with a report of what went. import: contacts in bulk (source `import`),
// either from a CSV file, as the dashboard imports one (domain/contact_import.h: each row on its
// own, a report of what each did), or from a JSON array of objects with the API's fields
// (external_id, email, phone, name, attributes), where the whole import is one transaction, so an
// invalid item, a conflict or the plan's allowance stops it with nothing saved and names the item.
#include <fstream>
#include <sstream>

#include "cli/admin_audited.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/contact_import.h"
#include "domain/contacts.h"
#include "domain/erasure.h"
#include "views/contact_import_json.h"
#include "views/contact_json.h"
#include "views/erasure_json.h"

namespace parley {

namespace {
struct ContactArgs {
  std::string agent;
  std::string contact;
  std::string file;
  std::string json;
  std::string mapping;
  int64_t max_rows = ImportLimits{}.max_rows;
};

Result<std::string> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return ApiError::invalid("Cannot read '" + path + "'.");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

ApiError for_item(size_t index, ApiError e) {
  e.message = "Item " + std::to_string(index) + ": " + e.message;
  return e;
}

Result<std::string> import_contacts(Services& s, const std::string& agent_id,
                                    const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsArray())
    return ApiError::invalid("The contacts must be a JSON array.");
  std::vector<ContactInput> inputs;
  for (size_t i = 0; i < doc.Size(); ++i) {
    if (!doc[i].IsObject()) return for_item(i, ApiError::invalid("must be an object."));
    auto in = parse_contact_input(doc[i]);
    if (!in.ok()) return for_item(i, in.error());
    inputs.push_back(std::move(in).value());
  }
  std::vector<ContactUpsert> saved;
  int64_t now = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, agent_id));
    if (!agent) return ApiError::not_found("No agent " + agent_id + ".");
    saved.clear();
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto r = upsert_contact(c, s.random, now, *agent, inputs[i], "import");
      if (!r.ok()) return for_item(i, r.error());
      saved.push_back(std::move(r).value());
    }
    return {};
  }));
  int64_t created = 0;
  for (const auto& x : saved) created += x.created;
  JsonWriter w;
  w.begin_object();
  w.key("created").integer(created);
  w.key("updated").integer(static_cast<int64_t>(saved.size()) - created);
  w.key("data").begin_array();
  for (const auto& x : saved) write_contact_json(w, x.contact);
  w.end_array().end_object();
  return w.str();
}

// A JSON array (a .json file, or text whose first character is '['), else CSV.
bool holds_json(const std::string& path, std::string_view text) {
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) return true;
  size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '[';
}

Result<std::string> import_csv(Services& s, const ContactArgs& a, std::string_view text) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, a.agent));
  if (!agent) return ApiError::not_found("No agent " + a.agent + ".");
  ImportLimits limits;
  limits.max_rows = a.max_rows;
  PARLEY_ASSIGN_OR_RETURN(auto report,
                          import_contacts_csv(s, *agent, {text, ""}, a.mapping, limits));
  JsonWriter w;
  w.begin_object().key("data");
  write_import_report_json(w, report);
  w.end_object();
  return w.str();
}
}  // namespace

void add_admin_contact_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* contact = admin.add_subcommand("contact", "Contacts");
  contact->require_subcommand(1);
  auto a = std::make_shared<ContactArgs>();

  auto* bulk = contact->add_subcommand("import", "Import contacts in bulk (source import)");
  bulk->add_option("--agent", a->agent, "Agent id")->required();
  auto* file =
      bulk->add_option("--file", a->file,
                       "A CSV file (row by row, as the dashboard imports it) or a JSON array of "
                       "contacts (.json, or text starting with '['; all or nothing)");
  bulk->add_option("--json", a->json, "JSON array of contacts")->excludes(file);
  bulk->add_option(
      "--mapping", a->mapping,
      "CSV only: JSON object from a column's header to external_id, email, phone, name, "
      "attributes.<name> or ignore (other columns mapped from their headers)");
  bulk->add_option("--max-rows", a->max_rows, "CSV only: most rows the file may hold")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  bulk->callback([&, a, bulk] {
    run = [&, a, bulk] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        std::string json = a->json;
        if (bulk->count("--file")) {
          PARLEY_ASSIGN_OR_RETURN(std::string text, read_file(a->file));
          if (!holds_json(a->file, text)) return import_csv(s, *a, text);
          json = std::move(text);
        }
        if (!a->mapping.empty()) return ApiError::invalid("--mapping applies to a CSV file only.");
        if (json.empty()) return ApiError::invalid("Give the contacts with --file or --json.");
        return import_contacts(s, a->agent, json);
      });
    };
  });

  auto* erase = contact->add_subcommand(
      "erase",
      "Erase a contact and everything of that person: leads, conversations, records, events");
  erase->add_option("id", a->contact, "Contact id")->required();
  erase->callback([&, a] {
    run = [&, a] {
      // Recorded with the contact's id and no field: nothing of the person enters the log.
      const CliAudit audit{.rule = {"contact.erase", "contact", nullptr},
                           .target_id = a->contact,
                           .account_of = account_of_contact};
      return run_admin_audited(global, audit, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto report, erase_contact(s, std::nullopt, a->contact));
        JsonWriter w;
        w.begin_object().key("data");
        write_erasure_json(w, report);
        w.end_object();
        return w.str();
      });
    };
  });

  // What the widget's identify call for a signed-in visitor does (source identity).
  auto* identify = contact->add_subcommand(
      "identify",
      "Create or update a contact as the widget's identify call would (source identity)");
  identify->add_option("--agent", a->agent, "Agent id")->required();
  identify->add_option("--json", a->json, "Contact fields as the API's POST body")->required();
  identify->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto body, parse_json_object(a->json));
        PARLEY_ASSIGN_OR_RETURN(auto input, parse_contact_input(body));
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, a->agent));
        if (!agent) return ApiError::not_found("No agent " + a->agent + ".");
        PARLEY_ASSIGN_OR_RETURN(auto saved, upsert_contact(s, *agent, input, "identity"));
        JsonWriter w;
        w.begin_object().key("data");
        write_contact_json(w, saved.contact);
        w.key("result").string(saved.created ? "created" : "updated");
        w.end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
