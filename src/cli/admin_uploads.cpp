// parley admin source upload: files added to an agent's knowledge as the dashboard adds them
// (domain/file_sources.h), one `file` source each. Prints one result per file, the reason for
// each refused one, and exits 1 when any was refused. With --wait it waits until the added sources
// are trained or failed: the running server's trainer trains them (it looks for new sources every
// second), so the command polls their status until --wait-timeout-s.
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "domain/file_sources.h"
#include "store/agent_repo.h"
#include "views/source_json.h"

namespace parley {

namespace {

struct UploadArgs {
  std::string agent;
  std::vector<std::string> files;
  bool wait = false;
  int64_t wait_timeout_s = 300;
};

struct FileResult {
  std::string path;
  std::optional<SourceAdded> added;
  std::optional<ApiError> error;
};

Result<std::string> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return ApiError::invalid("Cannot read '" + path + "'.");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool settled(const std::string& status) { return status == "trained" || status == "failed"; }

// Polls until every added source is trained or failed (or gone); the sources as they are then.
Result<std::vector<SourceRecord>> wait_for_training(Services& s, const AgentRecord& agent,
                                                    const std::vector<FileResult>& results,
                                                    int64_t timeout_s) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (true) {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(auto listing, list_sources(c, agent.account_id, agent.id));
    std::vector<SourceRecord> now;
    bool done = true;
    for (const auto& r : results) {
      if (!r.added) continue;
      for (const auto& x : listing.sources) {
        if (x.id != r.added->source.id) continue;
        now.push_back(x);
        done = done && settled(x.status);
      }
    }
    if (done) return now;
    if (std::chrono::steady_clock::now() >= deadline) {
      return ApiError{ErrorCode::kTimeout,
                      "The sources were not trained within " + std::to_string(timeout_s) +
                          " s; `parley serve` trains them, is it running on this database?"};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

int upload(const GlobalOptions& global, const UploadArgs& a) {
  auto db = open_configured_database(global);
  if (!db.ok()) return print_error(db.error());
  SystemClock clock;
  SecureRandom random;
  Services s{**db, clock, random};
  auto reader = s.db.read();
  if (!reader.ok()) return print_error(reader.error());
  auto agent = AgentRepo::find_any(reader->get(), a.agent);
  if (!agent.ok()) return print_error(agent.error());
  if (!*agent) return print_error(ApiError::not_found("No agent " + a.agent + "."));
  std::vector<FileResult> results;
  bool refused = false;
  for (const auto& path : a.files) {
    FileResult r{path, std::nullopt, std::nullopt};
    auto bytes = read_bytes(path);
    auto added = bytes.ok() ? add_file_source(s, (*agent)->account_id, (*agent)->id,
                                              {*bytes, "", path}, nullptr)
                            : Result<SourceAdded>(bytes.error());
    if (added.ok())
      r.added = std::move(added).value();
    else
      r.error = std::move(added).error();
    refused = refused || r.error.has_value();
    results.push_back(std::move(r));
  }
  std::vector<SourceRecord> trained;
  if (a.wait) {
    auto waited = wait_for_training(s, **agent, results, a.wait_timeout_s);
    if (!waited.ok()) return print_error(waited.error());
    trained = std::move(waited).value();
  }
  auto c = s.db.read();
  auto listing = c.ok() ? list_sources(c->get(), (*agent)->account_id, (*agent)->id)
                        : Result<SourceListing>(c.error());
  if (!listing.ok()) return print_error(listing.error());
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& r : results) {
    w.begin_object().key("file").string(r.path);
    if (r.added) {
      const SourceRecord* source = &r.added->source;
      for (const auto& x : trained)
        if (x.id == source->id) source = &x;
      w.key("result").string(outcome_name(r.added->outcome));
      w.key("source");
      write_source_json(w, *source);
    } else {
      w.key("result").string("refused");
      w.key("error").begin_object();
      w.key("code").string(error_code_name(r.error->code));
      w.key("message").string(r.error->message);
      w.end_object();
    }
    w.end_object();
  }
  w.end_array().key("training");
  write_training_json(w, listing->training);
  w.end_object();
  print_json(w.str());
  return refused ? 1 : 0;
}

}  // namespace

void add_admin_source_upload_command(CLI::App& source, GlobalOptions& global, CommandRun& run) {
  auto a = std::make_shared<UploadArgs>();
  auto* cmd = source.add_subcommand(
      "upload",
      "Add files (PDF, DOCX, HTML, Markdown, text, CSV) to an agent's knowledge, one source each");
  cmd->add_option("--agent", a->agent, "Agent id")->required();
  cmd->add_option("--file", a->files, "A file to add; give --file once per file")
      ->required()
      ->expected(1, -1);
  cmd->add_flag("--wait", a->wait,
                "Wait until the added sources are trained or failed (by the running server)");
  cmd->add_option("--wait-timeout-s", a->wait_timeout_s, "How long --wait waits at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([&, a] { run = [&, a] { return upload(global, *a); }; });
}

}  // namespace parley
