#include "domain/audit.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/json.h"

namespace parley {

namespace {
constexpr int64_t kScanPage = 500;
constexpr int64_t kPurgeBatch = 500;
constexpr std::string_view kRedacted = "\"[redacted]\"";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

const std::string& value_of(const std::optional<AuditSnapshot>& s, const std::string& field) {
  static const std::string kNull = "null";
  if (!s) return kNull;
  auto it = s->find(field);
  return it == s->end() ? kNull : it->second;
}

AuditVerdict bad(const AuditChain& chain, int64_t seq, std::optional<std::string> entry_id,
                 std::string problem, std::string message) {
  AuditVerdict v;
  v.ok = false;
  v.account_id = chain.account_id;
  v.seq = seq;
  v.entry_id = std::move(entry_id);
  v.problem = std::move(problem);
  v.message = std::move(message);
  return v;
}

std::string entry_name(const AuditChain& chain, int64_t seq) {
  return "entry #" + std::to_string(seq) + " of account " + chain.account_id;
}

// Walks one chain; a verdict that is not ok names its first bad entry.
Result<AuditVerdict> verify_chain(Connection& c, const AuditChain& chain, int64_t& entries) {
  int64_t expected_seq = chain.purged_seq + 1;
  std::string expected_prev = chain.purged_hash;
  for (;;) {
    PARLEY_ASSIGN_OR_RETURN(auto page,
                            AuditRepo::scan(c, chain.account_id, expected_seq - 1, kScanPage));
    for (const auto& e : page) {
      if (e.seq != expected_seq) {
        return bad(chain, expected_seq, std::nullopt, "deleted",
                   entry_name(chain, expected_seq) + " is missing (deleted); the next entry is " +
                       e.id + " (#" + std::to_string(e.seq) + ")");
      }
      if (audit_entry_hash(e) != e.hash) {
        return bad(chain, e.seq, e.id, "edited",
                   entry_name(chain, e.seq) + " (" + e.id +
                       ") was edited: its fields no longer give its hash");
      }
      if (e.prev_hash != expected_prev) {
        return bad(chain, e.seq, e.id, "broken_link",
                   entry_name(chain, e.seq) + " (" + e.id +
                       ") does not follow the entry before it: entries were rewritten, "
                       "reordered or removed");
      }
      expected_prev = e.hash;
      ++expected_seq;
      ++entries;
    }
    if (static_cast<int64_t>(page.size()) < kScanPage) break;
  }
  if (expected_seq - 1 < chain.last_seq) {
    return bad(chain, expected_seq, std::nullopt, "deleted",
               entry_name(chain, expected_seq) + " and any after it up to #" +
                   std::to_string(chain.last_seq) + " are missing (deleted)");
  }
  if (expected_seq - 1 > chain.last_seq || expected_prev != chain.last_hash) {
    return bad(chain, expected_seq - 1, std::nullopt, "edited",
               "the chain of account " + chain.account_id + " does not end where its head says (#" +
                   std::to_string(chain.last_seq) + "): entries were added or the head was edited");
  }
  return AuditVerdict{};
}
}  // namespace

bool audit_field_is_secret(std::string_view field) {
  const std::string f = lower(field);
  for (std::string_view word : {"secret", "password", "token", "apikey", "api_key", "signing",
                                "fingerprint", "credential"}) {
    if (f.find(word) != std::string::npos) return true;
  }
  const size_t dot = f.rfind('.');
  std::string_view last = std::string_view(f).substr(dot == std::string::npos ? 0 : dot + 1);
  return last == "key" || (last.size() > 3 && last.substr(last.size() - 3) == "key");
}

std::string audit_changes_json(const std::optional<AuditSnapshot>& before,
                               const std::optional<AuditSnapshot>& after) {
  std::set<std::string> fields;
  if (before)
    for (const auto& [k, v] : *before) fields.insert(k);
  if (after)
    for (const auto& [k, v] : *after) fields.insert(k);
  JsonWriter w;
  w.begin_array();
  for (const auto& f : fields) {
    const std::string& old_v = value_of(before, f);
    const std::string& new_v = value_of(after, f);
    if (old_v == new_v) continue;
    const bool secret = audit_field_is_secret(f);
    w.begin_object().key("field").string(f);
    w.key("old").raw(secret && old_v != "null" ? kRedacted : std::string_view(old_v));
    w.key("new").raw(secret && new_v != "null" ? kRedacted : std::string_view(new_v));
    w.end_object();
  }
  w.end_array();
  return w.str();
}

Result<AuditRecord> append_audit(Connection& c, const Clock& clock, Random& random,
                                 const AuditEvent& event) {
  AuditRecord r;
  r.id = new_ordered_id(random, "aud_");
  r.account_id = event.account_id;
  r.created_at = clock.now_ms();
  r.actor_type = event.actor.type;
  r.actor_id = event.actor.id;
  r.actor_name = event.actor.name;
  r.address = event.actor.address;
  r.action = event.action;
  r.target_type = event.target_type;
  r.target_id = event.target_id;
  r.changes = audit_changes_json(event.before, event.after);
  r.details = event.details;
  PARLEY_TRY(AuditRepo::append(c, r));
  return r;
}

Result<AuditVerdict> verify_audit(Database& db, const std::optional<std::string>& account_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  AuditVerdict total;
  PARLEY_ASSIGN_OR_RETURN(auto chains, AuditRepo::chains(c, account_id));
  for (const auto& chain : chains) {
    PARLEY_ASSIGN_OR_RETURN(auto v, verify_chain(c, chain, total.entries));
    ++total.chains;
    if (!v.ok) {
      v.chains = total.chains;
      v.entries = total.entries;
      return v;
    }
  }
  PARLEY_ASSIGN_OR_RETURN(auto orphans, AuditRepo::accounts_without_chain(c));
  for (const auto& account : orphans) {
    if (account_id && *account_id != account) continue;
    AuditChain missing{account, 0, "", 0, ""};
    auto v = bad(missing, 1, std::nullopt, "deleted",
                 "the chain head of account " + account + " is missing (deleted)");
    v.chains = total.chains;
    v.entries = total.entries;
    return v;
  }
  return total;
}

Result<int64_t> purge_audit(Database& db, const Clock& clock, int64_t keep_ms) {
  const int64_t before = clock.now_ms() - keep_ms;
  std::vector<AuditChain> chains;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
    PARLEY_ASSIGN_OR_RETURN(chains, AuditRepo::chains(c, std::nullopt));
  }
  int64_t removed = 0;
  std::string broken;
  for (const auto& chain : chains) {
    {
      // Most runs find nothing old enough: one read per chain, no verification.
      PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
      PARLEY_ASSIGN_OR_RETURN(auto oldest,
                              AuditRepo::scan(c, chain.account_id, chain.purged_seq, 1));
      if (oldest.empty() || oldest[0].created_at >= before) continue;
    }
    // Evidence of tampering is never purged away; the other chains are purged all the same.
    PARLEY_ASSIGN_OR_RETURN(auto verdict, verify_audit(db, chain.account_id));
    if (!verdict.ok) {
      broken += (broken.empty() ? "" : "; ") + verdict.message;
      continue;
    }
    for (;;) {
      int64_t n = 0;
      PARLEY_TRY(db.write([&](Connection& c) -> Result<void> {
        PARLEY_ASSIGN_OR_RETURN(n, AuditRepo::purge(c, chain.account_id, before, kPurgeBatch));
        return {};
      }));
      removed += n;
      if (n < kPurgeBatch) break;
    }
  }
  if (!broken.empty()) return ApiError::internal("audit chains not purged: " + broken);
  return removed;
}

}  // namespace parley
