// Contact import: the file read twice (once to check it as a whole, once to import it), rows
// validated as the API's POST bodies, and each batch of rows applied in one transaction.
#include "domain/contact_import.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <deque>

#include "core/csv.h"
#include "core/string_map.h"
#include "domain/contacts.h"
#include "extract/charset.h"
#include "store/account_repo.h"
#include "store/statistics.h"

namespace parley {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool blank(const std::vector<std::string>& cells) {
  return std::all_of(cells.begin(), cells.end(),
                     [](const std::string& c) { return trimmed(c).empty(); });
}

// A row's cells as the API's POST body, validated by the API's own rules. An empty cell sends
// nothing (a CSV cannot tell empty from absent), so it never clears a stored value.
Result<ContactInput> row_input(const ColumnMapping& m, const std::vector<std::string>& cells) {
  if (cells.size() > m.headers.size()) {
    return ApiError::invalid("The row has " + std::to_string(cells.size()) +
                             " fields; the header has " + std::to_string(m.headers.size()) + ".");
  }
  rapidjson::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  rapidjson::Value attributes(rapidjson::kObjectType);
  for (size_t i = 0; i < cells.size(); ++i) {
    std::string_view cell = trimmed(cells[i]);
    const ColumnTarget& t = m.targets[i];
    if (cell.empty() || t.field == ImportField::kIgnore) continue;
    rapidjson::Value value(rapidjson::StringRef(cell.data(), cell.size()));
    if (t.field == ImportField::kAttribute) {
      attributes.AddMember(rapidjson::StringRef(t.attribute.data(), t.attribute.size()), value, a);
    } else {
      static const std::string kNames[] = {"", "external_id", "email", "phone", "name"};
      const std::string& name = kNames[static_cast<int>(t.field)];
      body.AddMember(rapidjson::StringRef(name.data(), name.size()), value, a);
    }
  }
  if (attributes.MemberCount() > 0) body.AddMember("attributes", attributes, a);
  PARLEY_ASSIGN_OR_RETURN(auto in, parse_contact_input(body));
  if (!in.external_id.value && !in.email.value) {
    return ApiError::invalid("The row has neither an 'external_id' nor an 'email'.");
  }
  return in;
}

struct ParsedRow {
  int64_t row = 0;
  std::optional<ContactInput> input;
  std::optional<ApiError> error;  // refused before it reached the database
};

enum class Outcome { kCreated, kUpdated, kUnchanged, kRefused };

struct RowResult {
  Outcome outcome = Outcome::kRefused;
  std::optional<ApiError> error;
};

// A contact the batch has read or made; `fresh` ones are inserted when the batch ends.
struct Held {
  ContactRecord record;
  bool fresh = false;
};

class BatchIndex {
 public:
  Held* by_external_id(const std::optional<std::string>& v) { return find(external_ids_, v); }
  Held* by_email(const std::optional<std::string>& v) { return find(emails_, v); }
  Held* add(ContactRecord record, bool fresh) {
    held_.push_back({std::move(record), fresh});
    Held* h = &held_.back();
    if (h->record.external_id) external_ids_[*h->record.external_id] = h;
    if (h->record.email) emails_[*h->record.email] = h;
    return h;
  }
  // Replaces a held contact's fields, keeping both lookups in step.
  void change(Held* h, ContactRecord record) {
    move_key(external_ids_, h, h->record.external_id, record.external_id);
    move_key(emails_, h, h->record.email, record.email);
    h->record = std::move(record);
  }
  std::vector<ContactRecord> fresh() const {
    std::vector<ContactRecord> out;
    for (const auto& h : held_)
      if (h.fresh) out.push_back(h.record);
    return out;
  }

 private:
  static Held* find(StringMap<Held*>& map, const std::optional<std::string>& v) {
    if (!v) return nullptr;
    auto it = map.find(*v);
    return it == map.end() ? nullptr : it->second;
  }
  static void move_key(StringMap<Held*>& map, Held* h, const std::optional<std::string>& from,
                       const std::optional<std::string>& to) {
    if (from == to) return;
    if (from) {
      auto it = map.find(*from);
      if (it != map.end() && it->second == h) map.erase(it);
    }
    if (to) map[*to] = h;
  }
  std::deque<Held> held_;  // stable addresses
  StringMap<Held*> external_ids_;
  StringMap<Held*> emails_;
};

// One batch's rows in one transaction. Updates are written row by row, in order, so every
// intermediate state keeps the unique external IDs and emails; new contacts are inserted at the
// end (with any later row's changes already applied) and counted against the plan at once.
Result<std::vector<RowResult>> write_batch(Services& s, const AgentRecord& agent,
                                           const std::vector<ParsedRow>& rows) {
  std::vector<RowResult> results;
  int64_t now = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    results.assign(rows.size(), RowResult{});  // the unit of work may run again
    PARLEY_TRY(AgentRepo::lock(c, agent.id));  // as upsert_contact: one agent's upserts in turn
    PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, agent.account_id));
    if (!account) return ApiError::not_found("No account " + agent.account_id + ".");
    int64_t cap = effective_limits(account->plan, account->overrides).contacts_per_agent;
    PARLEY_ASSIGN_OR_RETURN(int64_t count, ContactRepo::count(c, agent.id));
    std::vector<std::string> external_ids, emails;
    for (const auto& r : rows) {
      if (!r.input) continue;
      if (r.input->external_id.value) external_ids.push_back(*r.input->external_id.value);
      if (r.input->email.value) emails.push_back(*r.input->email.value);
    }
    PARLEY_ASSIGN_OR_RETURN(auto found,
                            ContactRepo::find_holding_any(c, agent.id, external_ids, emails));
    BatchIndex index;
    for (auto& f : found) index.add(std::move(f), false);
    for (size_t i = 0; i < rows.size(); ++i) {
      RowResult& out = results[i];
      if (!rows[i].input) {
        out.error = rows[i].error;
        continue;
      }
      const ContactInput& in = *rows[i].input;
      Held* by_external_id = index.by_external_id(in.external_id.value);
      Held* by_email = index.by_email(in.email.value);
      auto match = match_upsert(by_external_id ? &by_external_id->record : nullptr,
                                by_email ? &by_email->record : nullptr, in);
      if (!match.ok()) {
        out.error = match.error();
        continue;
      }
      if (*match == UpsertMatch::kCreate) {
        if (count >= cap) {
          out.error = ApiError{ErrorCode::kContactLimitReached,
                               "The agent has reached its plan's allowance of " +
                                   std::to_string(cap) + " contacts."};
          continue;
        }
        ContactRecord fresh;
        fresh.id = new_ordered_id(s.random, "ctc_");
        fresh.agent_id = agent.id;
        fresh.account_id = agent.account_id;
        fresh.source = "import";
        fresh.first_seen_at = fresh.last_seen_at = fresh.created_at = fresh.updated_at = now;
        auto made = apply_contact_changes(std::move(fresh), in);
        if (!made.ok()) {
          out.error = made.error();
          continue;
        }
        index.add(std::move(made).value(), true);
        ++count;
        out.outcome = Outcome::kCreated;
        continue;
      }
      Held* target = *match == UpsertMatch::kByExternalId ? by_external_id : by_email;
      auto changed = apply_contact_changes(target->record, in);
      if (!changed.ok()) {
        out.error = changed.error();
        continue;
      }
      if (same_contact_fields(*changed, target->record)) {
        out.outcome = Outcome::kUnchanged;
        continue;
      }
      changed->last_seen_at = std::max(changed->last_seen_at, now);
      changed->updated_at = now;
      if (!target->fresh) PARLEY_TRY(ContactRepo::update(c, *changed));
      index.change(target, std::move(changed).value());
      out.outcome = Outcome::kUpdated;
    }
    PARLEY_ASSIGN_OR_RETURN(bool inserted,
                            ContactRepo::insert_all_within_cap(c, index.fresh(), cap));
    if (!inserted) return ApiError::internal("The agent's contact count moved during the import.");
    return {};
  }));
  return results;
}

void record(ImportReport& report, const ParsedRow& row, const RowResult& result) {
  ++report.rows;
  switch (result.outcome) {
    case Outcome::kCreated:
      ++report.created;
      return;
    case Outcome::kUpdated:
      ++report.updated;
      return;
    case Outcome::kUnchanged:
      ++report.unchanged;
      return;
    case Outcome::kRefused:
      break;
  }
  ++report.refused;
  if (report.errors.size() < kMaxImportErrors && result.error)
    report.errors.push_back({row.row, result.error->code, result.error->message});
}

// The first pass: the text reads as CSV to its end, with a header and at most `max_rows` rows.
// Returns the header.
Result<std::vector<std::string>> check_file(std::string_view text, const ImportLimits& limits) {
  CsvReader reader(text);
  std::vector<std::string> header, cells;
  PARLEY_ASSIGN_OR_RETURN(bool any, reader.next(header));
  if (!any || blank(header)) return ApiError::invalid("The file has no header row.");
  for (auto& h : header) h = std::string(trimmed(h));
  int64_t rows = 0;
  while (true) {
    PARLEY_ASSIGN_OR_RETURN(bool more, reader.next(cells));
    if (!more) break;
    if (!blank(cells) && ++rows > limits.max_rows) {
      return ApiError::invalid("The file has more than " + std::to_string(limits.max_rows) +
                               " rows; split it into files of at most that many.");
    }
  }
  return header;
}

}  // namespace

Result<ImportReport> import_contacts_csv(Services& s, const AgentRecord& agent,
                                         const ImportFile& file, std::string_view mapping_json,
                                         const ImportLimits& limits) {
  // UTF-8 (a byte order mark dropped), or the charset declared, marked or detected (ICU).
  const std::string text = decode_text(file.bytes, file.content_type, false).text;
  PARLEY_ASSIGN_OR_RETURN(auto header, check_file(text, limits));
  ImportReport report;
  PARLEY_ASSIGN_OR_RETURN(report.mapping, map_columns(header, mapping_json));
  CsvReader reader(text);
  std::vector<std::string> cells;
  PARLEY_TRY(reader.next(cells));  // the header
  std::vector<ParsedRow> batch;
  // A batch's identifiers are looked up in one statement.
  const size_t batch_rows = std::clamp<size_t>(limits.batch_rows, 1, ContactRepo::kMaxLookup);
  // The planner's statistics are refreshed each time the import's new contacts grow tenfold
  // (500, 5,000, …): at most a few times, and at once while a fresh table fills up.
  int64_t refresh_at = static_cast<int64_t>(batch_rows);
  auto flush = [&]() -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto results, write_batch(s, agent, batch));
    for (size_t i = 0; i < batch.size(); ++i) record(report, batch[i], results[i]);
    batch.clear();
    if (report.created >= refresh_at) {
      refresh_at = report.created * 10;
      PARLEY_TRY(refresh_statistics(s.db, "contacts"));
    }
    return {};
  };
  while (true) {
    PARLEY_ASSIGN_OR_RETURN(bool more, reader.next(cells));
    if (!more) break;
    if (blank(cells)) continue;
    ParsedRow row;
    row.row = static_cast<int64_t>(reader.record());
    auto in = row_input(report.mapping, cells);
    if (in.ok())
      row.input = std::move(in).value();
    else
      row.error = std::move(in).error();
    batch.push_back(std::move(row));
    if (batch.size() >= batch_rows) PARLEY_TRY(flush());
  }
  if (!batch.empty()) PARLEY_TRY(flush());
  return report;
}

}  // namespace parley
