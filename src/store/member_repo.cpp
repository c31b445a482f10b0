#include "store/member_repo.h"

namespace parley {

namespace {
#define MEMBER_COLUMNS "id, account_id, email, name, role, password_hash, created_at, updated_at"
#define MEMBER_COLUMNS_M "m.id, m.account_id, m.email, m.name, m.role, m.password_hash, m.created_at, m.updated_at"

MemberRecord read_member(const Row& r, int at) {
  MemberRecord m;
  m.id = r.text(at + 0);
  m.account_id = r.text(at + 1);
  m.email = r.text(at + 2);
  m.name = r.opt_text(at + 3);
  m.role = r.text(at + 4);
  m.password_hash = r.opt_text(at + 5);
  m.created_at = r.int64(at + 6);
  m.updated_at = r.int64(at + 7);
  return m;
}
}  // namespace

Result<void> MemberRepo::insert(Connection& c, const MemberRecord& m) {
  PARLEY_TRY(c.execute(
      "INSERT INTO members (" MEMBER_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      {m.id, m.account_id, m.email, db_opt(m.name), m.role, db_opt(m.password_hash), m.created_at, m.updated_at}));
  return {};
}

Result<std::optional<MemberRecord>> MemberRepo::find(Connection& c, std::string_view id) {
  std::optional<MemberRecord> out;
  PARLEY_TRY(c.query("SELECT " MEMBER_COLUMNS " FROM members WHERE id = $1", {id},
                     [&](const Row& r) { out = read_member(r, 0); }));
  return out;
}

Result<std::optional<MemberRecord>> MemberRepo::find_by_email(Connection& c, std::string_view email) {
  std::optional<MemberRecord> out;
  PARLEY_TRY(c.query("SELECT " MEMBER_COLUMNS " FROM members WHERE email = $1", {email},
                     [&](const Row& r) { out = read_member(r, 0); }));
  return out;
}

Result<std::vector<MemberRecord>> MemberRepo::list(Connection& c, std::string_view account_id) {
  std::vector<MemberRecord> out;
  PARLEY_TRY(c.query("SELECT " MEMBER_COLUMNS " FROM members WHERE account_id = $1 ORDER BY created_at DESC, id DESC",
                     {account_id}, [&](const Row& r) { out.push_back(read_member(r, 0)); }));
  return out;
}

Result<bool> MemberRepo::remove(Connection& c, std::string_view id) {
  PARLEY_TRY(c.execute("DELETE FROM member_tokens WHERE member_id = $1", {id}));
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("DELETE FROM members WHERE id = $1", {id}));
  return n > 0;
}

Result<void> MemberRepo::insert_token(Connection& c, const MemberTokenRecord& t) {
  PARLEY_TRY(
      c.execute("INSERT INTO member_tokens (fingerprint, id, member_id, kind, created_at, expires_at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                {t.fingerprint, t.id, t.member_id, t.kind, t.created_at, db_opt(t.expires_at)}));
  return {};
}

Result<std::optional<TokenOwner>> MemberRepo::find_token(Connection& c, std::string_view fingerprint) {
  std::optional<TokenOwner> out;
  PARLEY_TRY(c.query("SELECT t.fingerprint, t.id, t.member_id, t.kind, t.created_at, t.expires_at, " MEMBER_COLUMNS_M
                     " FROM member_tokens t JOIN members m ON m.id = t.member_id WHERE t.fingerprint = $1",
                     {fingerprint}, [&](const Row& r) {
                       TokenOwner o;
                       o.token.fingerprint = r.text(0);
                       o.token.id = r.text(1);
                       o.token.member_id = r.text(2);
                       o.token.kind = r.text(3);
                       o.token.created_at = r.int64(4);
                       o.token.expires_at = r.opt_int64(5);
                       o.member = read_member(r, 6);
                       out = std::move(o);
                     }));
  return out;
}

Result<bool> MemberRepo::remove_token(Connection& c, std::string_view fingerprint) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("DELETE FROM member_tokens WHERE fingerprint = $1", {fingerprint}));
  return n > 0;
}

Result<int64_t> MemberRepo::remove_expired(Connection& c, int64_t now) {
  return c.execute("DELETE FROM member_tokens WHERE expires_at IS NOT NULL AND expires_at < $1", {now});
}

}  // namespace parley
