// parley admin conversation export --agent A --format jsonl|csv [--from DAY --to DAY]: the agent's
// conversations as the console's export writes them (views/conversation_export.h), on stdout, a
// batch at a time as they are read, so an export of any size runs in flat memory. Unlike other
// admin commands, stdout is the export itself (one conversation per line in JSON Lines); an
// error before the first byte is the usual JSON error on stderr with a non-zero exit, an error
// after it leaves the output cut short and exits non-zero too.
#include <cstdio>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/random.h"
#include "store/agent_repo.h"
#include "views/conversation_export.h"

namespace parley {

namespace {
struct ExportArgs {
  std::string agent;
  std::string format = "jsonl";
  std::string from;
  std::string to;
};

constexpr int64_t kBatch = 500;

bool put(std::string_view text) {
  return text.empty() || std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
}

int export_conversations(const GlobalOptions& global, const ExportArgs& a, bool has_from,
                         bool has_to) {
  auto request = parse_export_request(
      a.format, has_from ? std::optional<std::string_view>(a.from) : std::nullopt,
      has_to ? std::optional<std::string_view>(a.to) : std::nullopt);
  if (!request.ok()) return print_error(request.error());
  auto db = open_configured_database(global);
  if (!db.ok()) return print_error(db.error());
  {
    auto c = (*db)->read();
    if (!c.ok()) return print_error(c.error());
    auto agent = AgentRepo::find_any(c->get(), a.agent);
    if (!agent.ok()) return print_error(agent.error());
    if (!*agent) return print_error(ApiError::not_found("No agent " + a.agent + "."));
  }
  if (!put(export_header(request->format))) return 1;
  ExportKey after{request->from_ms, ""};
  std::string text;
  for (;;) {
    auto c = (*db)->read();
    if (!c.ok()) return print_error(c.error());
    auto batch = ExportQueries::batch(c->get(), a.agent, after, request->to_ms, kBatch);
    if (!batch.ok()) return print_error(batch.error());
    text.clear();
    append_export(request->format, *batch, text);
    if (!put(text)) return 1;
    if (static_cast<int64_t>(batch->size()) < kBatch) break;
    after = {batch->back().conversation.created_at, batch->back().conversation.id};
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
}  // namespace

void add_admin_export_command(CLI::App& conversation, GlobalOptions& global, CommandRun& run) {
  auto a = std::make_shared<ExportArgs>();
  auto* cmd = conversation.add_subcommand("export",
                                          "Export an agent's conversations on stdout (JSON Lines: "
                                          "one conversation a line; CSV: one row a message)");
  cmd->add_option("--agent", a->agent, "Agent id")->required();
  cmd->add_option("--format", a->format, "jsonl or csv")->capture_default_str();
  cmd->add_option("--from", a->from, "First day (YYYY-MM-DD, UTC) of createdAt, included");
  cmd->add_option("--to", a->to, "Last day (YYYY-MM-DD, UTC) of createdAt, included");
  cmd->callback([&, a, cmd] {
    run = [&, a, cmd] {
      return export_conversations(global, *a, cmd->count("--from") > 0, cmd->count("--to") > 0);
    };
  });
}

}  // namespace parley
