#include "store/audit_repo.h"

#include "core/crypto.h"

namespace parley {

namespace {
constexpr std::string_view kColumns =
    "id, account_id, seq, created_at, actor_type, actor_id, actor_name, address, action, "
    "target_type, target_id, changes, details, prev_hash, hash";

AuditRecord read_row(const Row& r) {
  AuditRecord a;
  a.id = r.text(0);
  a.account_id = r.text(1);
  a.seq = r.int64(2);
  a.created_at = r.int64(3);
  a.actor_type = r.text(4);
  a.actor_id = r.opt_text(5);
  a.actor_name = r.text(6);
  a.address = r.opt_text(7);
  a.action = r.text(8);
  a.target_type = r.text(9);
  a.target_id = r.opt_text(10);
  a.changes = r.text(11);
  a.details = r.opt_text(12);
  a.prev_hash = r.text(13);
  a.hash = r.text(14);
  return a;
}

// "<length>:<bytes>;" for a value, "-;" for none: no two different entries read alike.
void field(std::string& out, std::string_view v) {
  out += std::to_string(v.size());
  out += ':';
  out += v;
  out += ';';
}
void field(std::string& out, const std::optional<std::string>& v) {
  if (v) {
    field(out, std::string_view(*v));
  } else {
    out += "-;";
  }
}
}  // namespace

std::string audit_entry_hash(const AuditRecord& r) {
  std::string in = "parley-audit-v1;";
  field(in, std::string_view(r.prev_hash));
  field(in, std::string_view(r.id));
  field(in, std::string_view(r.account_id));
  field(in, std::string_view(std::to_string(r.seq)));
  field(in, std::string_view(std::to_string(r.created_at)));
  field(in, std::string_view(r.actor_type));
  field(in, r.actor_id);
  field(in, std::string_view(r.actor_name));
  field(in, r.address);
  field(in, std::string_view(r.action));
  field(in, std::string_view(r.target_type));
  field(in, r.target_id);
  field(in, std::string_view(r.changes));
  field(in, r.details);
  return sha256_hex(in);
}

Result<void> AuditRepo::hold_chain(Connection& c, std::string_view account_id) {
  PARLEY_TRY(
      c.execute("INSERT INTO audit_chains (id, last_seq, last_hash, purged_seq, purged_hash)"
                " VALUES ($1, 0, $2, 0, $2) ON CONFLICT (id) DO NOTHING",
                {account_id, kAuditGenesisHash}));
  PARLEY_TRY(c.execute("UPDATE audit_chains SET last_seq = last_seq WHERE id = $1", {account_id}));
  return {};
}

Result<void> AuditRepo::append(Connection& c, AuditRecord& r) {
  PARLEY_TRY(
      c.execute("INSERT INTO audit_chains (id, last_seq, last_hash, purged_seq, purged_hash)"
                " VALUES ($1, 0, $2, 0, $2) ON CONFLICT (id) DO NOTHING",
                {std::string_view(r.account_id), kAuditGenesisHash}));
  // The UPDATE holds the chain's row until the transaction ends: appends to one chain queue here.
  bool found = false;
  PARLEY_TRY(
      c.query("UPDATE audit_chains SET last_seq = last_seq + 1 WHERE id = $1"
              " RETURNING last_seq, last_hash",
              {std::string_view(r.account_id)}, [&](const Row& row) {
                found = true;
                r.seq = row.int64(0);
                r.prev_hash = row.text(1);
              }));
  if (!found) return ApiError::internal("audit chain of " + r.account_id + " not found");
  r.hash = audit_entry_hash(r);
  PARLEY_TRY(
      c.execute("INSERT INTO audit_entries (id, account_id, seq, created_at, actor_type, actor_id, "
                "actor_name,"
                " address, action, target_type, target_id, changes, details, prev_hash, hash)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                {std::string_view(r.id), std::string_view(r.account_id), r.seq, r.created_at,
                 std::string_view(r.actor_type), db_opt(r.actor_id), std::string_view(r.actor_name),
                 db_opt(r.address), std::string_view(r.action), std::string_view(r.target_type),
                 db_opt(r.target_id), std::string_view(r.changes), db_opt(r.details),
                 std::string_view(r.prev_hash), std::string_view(r.hash)}));
  PARLEY_TRY(c.execute("UPDATE audit_chains SET last_hash = $2 WHERE id = $1",
                       {std::string_view(r.account_id), std::string_view(r.hash)}));
  return {};
}

Result<std::vector<AuditRecord>> AuditRepo::list(Connection& c, const AuditFilter& f) {
  // Only fixed fragments are appended; every value is a parameter.
  std::string sql = "SELECT " + std::string(kColumns) + " FROM audit_entries WHERE account_id = $1";
  std::vector<DbValue> params{f.account_id};
  auto add = [&](std::string_view fragment, DbValue v) {
    params.push_back(std::move(v));
    sql += " AND ";
    sql += fragment;
    sql += " $" + std::to_string(params.size());
  };
  if (f.actor_id) add("actor_id =", *f.actor_id);
  if (f.action) {
    if (!f.action->empty() && f.action->back() == '.') {
      add("substr(action, 1, " + std::to_string(f.action->size()) + ") =", *f.action);
    } else {
      add("action =", *f.action);
    }
  }
  if (f.target_type) add("target_type =", *f.target_type);
  if (f.target_id) add("target_id =", *f.target_id);
  if (f.from) add("created_at >=", *f.from);
  if (f.to) add("created_at <", *f.to);
  if (f.before_seq) add("seq <", *f.before_seq);
  params.emplace_back(f.limit + 1);
  sql += " ORDER BY seq DESC LIMIT $" + std::to_string(params.size());
  std::vector<AuditRecord> out;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out.push_back(read_row(r)); }));
  return out;
}

Result<std::vector<AuditChain>> AuditRepo::chains(Connection& c,
                                                  const std::optional<std::string>& account_id) {
  std::vector<AuditChain> out;
  auto on_row = [&](const Row& r) {
    out.push_back({r.text(0), r.int64(1), r.text(2), r.int64(3), r.text(4)});
  };
  if (account_id) {
    PARLEY_TRY(
        c.query("SELECT id, last_seq, last_hash, purged_seq, purged_hash FROM audit_chains"
                " WHERE id = $1",
                {std::string_view(*account_id)}, on_row));
  } else {
    PARLEY_TRY(
        c.query("SELECT id, last_seq, last_hash, purged_seq, purged_hash FROM audit_chains"
                " ORDER BY id",
                {}, on_row));
  }
  return out;
}

Result<std::vector<AuditRecord>> AuditRepo::scan(Connection& c, std::string_view account_id,
                                                 int64_t after_seq, int64_t limit) {
  std::vector<AuditRecord> out;
  PARLEY_TRY(c.query("SELECT " + std::string(kColumns) +
                         " FROM audit_entries WHERE account_id = $1 AND seq > $2"
                         " ORDER BY seq LIMIT $3",
                     {account_id, after_seq, limit},
                     [&](const Row& r) { out.push_back(read_row(r)); }));
  return out;
}

Result<std::vector<std::string>> AuditRepo::accounts_without_chain(Connection& c) {
  std::vector<std::string> out;
  PARLEY_TRY(
      c.query("SELECT DISTINCT account_id FROM audit_entries e WHERE NOT EXISTS"
              " (SELECT 1 FROM audit_chains h WHERE h.id = e.account_id)"
              " ORDER BY account_id",
              {}, [&](const Row& r) { out.push_back(r.text(0)); }));
  return out;
}

Result<int64_t> AuditRepo::purge(Connection& c, std::string_view account_id, int64_t before,
                                 int64_t limit) {
  // The oldest entries, up to the first one that is young enough to keep.
  int64_t last_seq = 0;
  std::string last_hash;
  bool stop = false;
  PARLEY_TRY(
      c.query("SELECT seq, created_at, hash FROM audit_entries WHERE account_id = $1"
              " ORDER BY seq LIMIT $2",
              {account_id, limit}, [&](const Row& r) {
                if (stop || r.int64(1) >= before) {
                  stop = true;
                  return;
                }
                last_seq = r.int64(0);
                last_hash = r.text(2);
              }));
  if (last_seq == 0) return int64_t{0};
  PARLEY_ASSIGN_OR_RETURN(int64_t removed,
                          c.execute("DELETE FROM audit_entries WHERE account_id = $1 AND seq <= $2",
                                    {account_id, last_seq}));
  PARLEY_TRY(c.execute("UPDATE audit_chains SET purged_seq = $2, purged_hash = $3 WHERE id = $1",
                       {account_id, last_seq, std::string_view(last_hash)}));
  return removed;
}

}  // namespace parley
