#include "domain/workspace_import.h"

#include "core/json.h"
#include "core/time_format.h"
#include "domain/sources.h"

namespace parley {

namespace {
// What a finished step wrote, and what the trainer and the index must hear of.
struct Stored {
  WorkspacePageRecord row;
  bool queued = false;          // a source waits for training
  int64_t removed_version = 0;  // a trained source left the index
  std::string removed_source;
};

// The row's error code for an error of the import.
std::string code_of(const ApiError& e) {
  switch (e.code) {
    case ErrorCode::kUnauthorized:
      return "notion_unauthorized";
    case ErrorCode::kForbidden:
      return "notion_forbidden";
    case ErrorCode::kNotFound:
      return "page_not_found";
    case ErrorCode::kRateLimited:
      return "notion_rate_limited";
    case ErrorCode::kUnavailable:
      return "notion_unavailable";
    case ErrorCode::kCharacterLimitExceeded:
      return "character_limit_exceeded";
    default:
      return "notion_error";
  }
}

std::string source_title(const NotionPage& page) {
  std::string title = page.title.empty() ? "Untitled" : page.title;
  if (utf8_length(title) <= kMaxTitleChars) return title;
  return cut_page_text(title, kMaxTitleChars - 1) + "…";
}

void finish(WorkspacePageRecord& row, std::string state, std::string outcome, int64_t now) {
  row.state = std::move(state);
  row.outcome = std::move(outcome);
  row.error_code.reset();
  row.error_message.reset();
  row.lease_until.reset();
  row.finished_at = now;
}

// The row inside the transaction, if it is still this step's to write: running (a disconnect
// fails it; deleting its source deletes it).
Result<std::optional<WorkspacePageRecord>> still_running(Connection& c,
                                                         const WorkspacePageRecord& claimed) {
  PARLEY_ASSIGN_OR_RETURN(auto row, WorkspaceRepo::page(c, claimed.agent_id, claimed.page_id));
  if (!row || row->state != "running") return std::optional<WorkspacePageRecord>();
  return row;
}

// Takes a trained source's characters off the agent and moves its knowledge version.
Result<void> release(Connection& c, AgentRecord& agent, const SourceRecord& src, Stored& out) {
  if (src.status != "trained") return {};
  agent.characters -= src.characters;
  PARLEY_ASSIGN_OR_RETURN(out.removed_version, SourceRepo::bump_version(c, agent.id));
  out.removed_source = src.id;
  return {};
}

Result<AgentRecord> locked_agent(Connection& c, std::string_view agent_id) {
  PARLEY_TRY(AgentRepo::lock(c, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, agent_id));
  if (!agent) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
  return std::move(*agent);
}

Result<Stored> write_text(Services& s, const WorkspacePageRecord& claimed, const NotionPage& page,
                          const std::string& text, int64_t read_at) {
  Stored out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out = Stored{};
    PARLEY_ASSIGN_OR_RETURN(auto agent, locked_agent(c, claimed.agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto row, still_running(c, claimed));
    if (!row) return {};
    const int64_t now = s.clock.now_ms();
    const int64_t characters = static_cast<int64_t>(utf8_length(text));
    std::optional<SourceRecord> existing;
    if (row->source_id) {
      PARLEY_ASSIGN_OR_RETURN(existing, SourceRepo::find(c, agent.id, *row->source_id));
    }
    SourceRecord src;
    if (existing) {
      src = std::move(*existing);
      PARLEY_TRY(check_character_limit(c, agent.account_id, agent.id,
                                       src.status == "failed" ? 0 : src.characters, characters));
      PARLEY_TRY(release(c, agent, src, out));
      src.status = "pending";
      src.error.reset();
      src.lease_until.reset();
    } else {
      PARLEY_TRY(check_character_limit(c, agent.account_id, agent.id, 0, characters));
      src.id = new_id(s.random, "src_");
      src.agent_id = agent.id;
      src.account_id = agent.account_id;
      src.type = "workspace";
      src.created_at = now;
    }
    src.title = source_title(page);
    src.url = page.url.empty() ? std::nullopt : std::optional<std::string>(page.url);
    src.content = text;
    src.characters = characters;
    src.status = "pending";
    src.updated_at = now;
    if (existing) {
      PARLEY_TRY(SourceRepo::update(c, src));
      PARLEY_TRY(SourceRepo::set_title(c, src.id, src.title));
      PARLEY_TRY(SourceRepo::set_url(c, src.id, src.url));
    } else {
      PARLEY_TRY(SourceRepo::insert(c, src));
      PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, 1));
    }
    finish(*row, "done", existing ? "updated" : "created", now);
    row->source_id = src.id;
    row->title = src.title;
    row->url = src.url;
    row->last_edited_time = page.last_edited_time;
    row->content_read_at = read_at;
    PARLEY_TRY(WorkspaceRepo::update_page(c, *row));
    PARLEY_TRY(settle_agent_status(c, agent));
    out.row = std::move(*row);
    out.queued = true;
    return {};
  }));
  return out;
}

// The source holds the page's text as it is; `read_at`: when it was compared (else left).
Result<Stored> write_unchanged(Services& s, const WorkspacePageRecord& claimed,
                               const NotionPage& page, std::optional<int64_t> read_at) {
  Stored out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out = Stored{};
    PARLEY_ASSIGN_OR_RETURN(auto row, still_running(c, claimed));
    if (!row) return {};
    finish(*row, "done", "unchanged", s.clock.now_ms());
    row->last_edited_time = page.last_edited_time;
    if (read_at) row->content_read_at = read_at;
    PARLEY_TRY(WorkspaceRepo::update_page(c, *row));
    out.row = std::move(*row);
    return {};
  }));
  return out;
}

// The page is gone from Notion: its source leaves with what the agent learned from it.
Result<Stored> write_removed(Services& s, const WorkspacePageRecord& claimed) {
  Stored out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out = Stored{};
    PARLEY_ASSIGN_OR_RETURN(auto agent, locked_agent(c, claimed.agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto row, still_running(c, claimed));
    if (!row) return {};
    std::optional<SourceRecord> src;
    if (row->source_id) {
      PARLEY_ASSIGN_OR_RETURN(src, SourceRepo::find(c, agent.id, *row->source_id));
    }
    finish(*row, "done", "removed", s.clock.now_ms());
    row->source_id.reset();  // before the source goes: deleting it would delete the row too
    PARLEY_TRY(WorkspaceRepo::update_page(c, *row));
    if (src) {
      PARLEY_TRY(release(c, agent, *src, out));
      PARLEY_TRY(SourceRepo::remove(c, src->id));
      PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, -1));
      PARLEY_TRY(settle_agent_status(c, agent));
    }
    out.row = std::move(*row);
    return {};
  }));
  return out;
}

// The import failed. A page never imported becomes a failed source saying why (unless the plan's
// characters were the reason: nothing is added then); a page imported before keeps its source,
// unless `fail_source` (the page has no text any more): the source is failed and leaves the index.
Result<Stored> write_failure(Services& s, const WorkspacePageRecord& claimed, const ApiError& error,
                             const NotionPage* page, bool fail_source, std::string_view code = {}) {
  Stored out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out = Stored{};
    PARLEY_ASSIGN_OR_RETURN(auto agent, locked_agent(c, claimed.agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto row, still_running(c, claimed));
    if (!row) return {};
    const int64_t now = s.clock.now_ms();
    std::optional<SourceRecord> src;
    if (row->source_id) {
      PARLEY_ASSIGN_OR_RETURN(src, SourceRepo::find(c, agent.id, *row->source_id));
    }
    if (page != nullptr) {
      row->title = source_title(*page);
      if (!page->url.empty()) row->url = page->url;
    }
    bool settle = false;
    if (!src && error.code != ErrorCode::kCharacterLimitExceeded) {
      SourceRecord failed;
      failed.id = new_id(s.random, "src_");
      failed.agent_id = agent.id;
      failed.account_id = agent.account_id;
      failed.type = "workspace";
      failed.title = row->title;
      failed.url = row->url;
      failed.content = "";
      failed.status = "failed";
      failed.error = error.message;
      failed.finished_at = now;
      failed.created_at = failed.updated_at = now;
      PARLEY_TRY(SourceRepo::insert(c, failed));
      PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, 1));
      row->source_id = failed.id;
      settle = true;
    } else if (src && fail_source && src->status != "failed") {
      PARLEY_TRY(release(c, agent, *src, out));
      src->status = "failed";
      src->error = error.message;
      src->lease_until.reset();
      src->finished_at = src->updated_at = now;
      PARLEY_TRY(SourceRepo::update(c, *src));
      if (page != nullptr) row->last_edited_time = page->last_edited_time;
      settle = true;
    }
    finish(*row, "failed", "failed", now);
    row->error_code = code.empty() ? code_of(error) : std::string(code);
    row->error_message = error.message;
    PARLEY_TRY(WorkspaceRepo::update_page(c, *row));
    if (settle) PARLEY_TRY(settle_agent_status(c, agent));
    out.row = std::move(*row);
    return {};
  }));
  return out;
}

Result<std::optional<WorkspacePageRecord>> claim_next(Services& s, int64_t lease_ms) {
  std::optional<WorkspacePageRecord> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.reset();
    const int64_t now = s.clock.now_ms();
    PARLEY_ASSIGN_OR_RETURN(auto next, WorkspaceRepo::next_claimable(c, now));
    if (!next) return {};
    PARLEY_ASSIGN_OR_RETURN(
        bool claimed, WorkspaceRepo::claim(c, next->agent_id, next->page_id, now, now + lease_ms));
    if (!claimed) return {};
    next->state = "running";
    next->lease_until = now + lease_ms;
    out = std::move(next);
    return {};
  }));
  return out;
}

Result<Stored> import_claimed(Services& s, WorkspaceServices& w, const WorkspacePageRecord& row,
                              const NotionWait& wait, int64_t lease_ms) {
  std::optional<WorkspaceConnectionRecord> connection;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(connection, WorkspaceRepo::connection(c, row.agent_id));
  }
  if (!connection) {
    return write_failure(
        s, row, {ErrorCode::kConflict, "The workspace was disconnected before the page was read."},
        nullptr, false, "workspace_disconnected");
  }
  if (w.secret_box == nullptr || w.notion_sender == nullptr)
    return write_failure(
        s, row, {ErrorCode::kUnavailable, "This server has no secret key to open the token."},
        nullptr, false);
  auto token = w.secret_box->open(connection->token_sealed, connection->agent_id);
  if (!token.ok())
    return write_failure(s, row, {ErrorCode::kUnavailable, token.error().message}, nullptr, false,
                         "secret_key_mismatch");

  int64_t renewed_at = s.clock.now_ms();
  auto tick = [&] {
    int64_t now = s.clock.now_ms();
    if (now - renewed_at < lease_ms / 3) return;
    renewed_at = now;
    (void)s.db.write([&](Connection& c) {
      return WorkspaceRepo::renew_lease(c, row.agent_id, row.page_id, now + lease_ms);
    });
  };
  NotionClient client(*w.notion_sender, w.notion, std::move(*token), wait);
  const int64_t read_at = s.clock.now_ms();
  auto page = client.page(row.page_id);
  if (!page.ok()) {
    if (page.error().code == ErrorCode::kNotFound && row.source_id) return write_removed(s, row);
    return write_failure(s, row, page.error(), nullptr, false);
  }
  if (page->gone) {
    if (row.source_id) return write_removed(s, row);
    return write_failure(s, row, ApiError::not_found("The page is archived or in Notion's trash."),
                         &*page, false);
  }
  std::optional<SourceRecord> existing;
  if (row.source_id) {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(existing, SourceRepo::find(c, row.agent_id, *row.source_id));
    if (existing && existing->status == "failed") existing.reset();
  }
  // Notion's last_edited_time is a whole minute: the same time proves nothing changed only when
  // the text was read after that minute ended.
  if (existing && row.last_edited_time == page->last_edited_time && row.content_read_at) {
    auto edited = parse_timestamp(page->last_edited_time);
    if (edited && *row.content_read_at >= *edited + 60'000)
      return write_unchanged(s, row, *page, std::nullopt);
  }
  tick();
  auto content = client.page_content(page->id.empty() ? row.page_id : page->id, tick);
  if (!content.ok()) return write_failure(s, row, content.error(), &*page, false);
  std::string text = cut_page_text(render_page_text(content->blocks), kMaxContentChars);
  if (is_blank(text)) {
    return write_failure(s, row,
                         {ErrorCode::kInvalidRequest, "The page has no text to learn from."},
                         &*page, true, "page_empty");
  }
  if (existing && existing->content == text && existing->title == source_title(*page) &&
      existing->url.value_or("") == page->url)
    return write_unchanged(s, row, *page, read_at);
  auto stored = write_text(s, row, *page, text, read_at);
  if (!stored.ok() && stored.error().code == ErrorCode::kCharacterLimitExceeded)
    return write_failure(s, row, stored.error(), &*page, false);
  return stored;
}
}  // namespace

std::string cut_page_text(std::string text, size_t max_chars) {
  size_t count = 0, i = 0, last_line = std::string::npos;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (count == max_chars) break;  // `i` is the first byte past the limit
      ++count;
    }
    if (text[i] == '\n') last_line = i;
  }
  if (i == text.size()) return text;
  text.resize(last_line != std::string::npos && last_line > 0 ? last_line : i);
  return text;
}

Result<ImportStep> import_next_page(Services& s, WorkspaceServices& w, SourceListener* listener,
                                    const NotionWait& wait, int64_t lease_ms) {
  ImportStep step;
  PARLEY_ASSIGN_OR_RETURN(auto claimed, claim_next(s, lease_ms));
  if (!claimed) return step;
  step.claimed = true;
  PARLEY_ASSIGN_OR_RETURN(Stored stored, import_claimed(s, w, *claimed, wait, lease_ms));
  if (listener != nullptr) {
    if (stored.removed_version != 0)
      listener->source_removed(claimed->agent_id, stored.removed_source, stored.removed_version);
    if (stored.queued) listener->sources_queued();
  }
  step.page = stored.row.page_id.empty() ? *claimed : std::move(stored.row);
  return step;
}

}  // namespace parley
