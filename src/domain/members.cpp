#include "domain/members.h"

#include <array>

#include "core/crypto.h"
#include "core/json.h"
#include "core/random.h"
#include "domain/member_passwords.h"
#include "store/account_repo.h"

namespace parley {

namespace {
constexpr size_t kTokenRandomChars = 40;
constexpr std::string_view kBadLogin = "Email or password is incorrect.";

bool is_base62(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

Result<std::string> checked_email(std::string_view raw) {
  std::string email = normalize_email(raw);
  size_t at = email.find('@');
  bool ok = !email.empty() && email.size() <= 254 && at != std::string::npos && at > 0 &&
            email.find('@', at + 1) == std::string::npos && email.find('.', at + 2) != std::string::npos &&
            email.back() != '.';
  for (char c : email)
    if (static_cast<unsigned char>(c) <= ' ') ok = false;
  if (!ok) return ApiError::invalid("'email' must be a valid email address.");
  return email;
}

MemberTokenRecord new_token(Services& s, std::string_view prefix, std::string_view kind, std::string_view member_id,
                            std::string& plaintext) {
  plaintext = std::string(prefix) + random_base62(s.random, kTokenRandomChars);
  MemberTokenRecord t;
  t.id = new_id(s.random, "mtk_");
  t.fingerprint = sha256_hex(plaintext);
  t.member_id = std::string(member_id);
  t.kind = std::string(kind);
  t.created_at = s.clock.now_ms();
  return t;
}

ApiError bad_token() {
  return {ErrorCode::kUnauthorized, "The console token is unknown, expired or ended; log in again."};
}
}  // namespace

std::optional<Role> parse_role(std::string_view name) {
  if (name == "owner") return Role::kOwner;
  if (name == "admin") return Role::kAdmin;
  if (name == "editor") return Role::kEditor;
  if (name == "viewer") return Role::kViewer;
  return std::nullopt;
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::kOwner: return "owner";
    case Role::kAdmin: return "admin";
    case Role::kEditor: return "editor";
    case Role::kViewer: return "viewer";
  }
  return "viewer";
}

bool is_well_formed_member_token(std::string_view token) {
  if (token.size() != 4 + kTokenRandomChars) return false;
  if (token.substr(0, 4) != "cst_" && token.substr(0, 4) != "cmt_") return false;
  for (char c : token.substr(4))
    if (!is_base62(c)) return false;
  return true;
}

std::string normalize_email(std::string_view email) {
  std::string out(email);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

Result<CreatedMember> create_member(Services& s, const NewMember& in) {
  PARLEY_ASSIGN_OR_RETURN(std::string email, checked_email(in.email));
  auto role = parse_role(in.role);
  if (!role) return ApiError::invalid("'role' must be one of owner, admin, editor, viewer.");
  if (in.name && (in.name->empty() || utf8_length(*in.name) > 100)) {
    return ApiError::invalid("'name' must be 1 to 100 characters.");
  }
  CreatedMember out;
  MemberRecord& m = out.record;
  if (in.password) {
    PARLEY_TRY(check_password_rules(*in.password));
    PARLEY_ASSIGN_OR_RETURN(m.password_hash, hash_password(s.random, *in.password));
  }
  m.id = new_id(s.random, "mem_");
  m.account_id = in.account_id;
  m.email = email;
  m.name = in.name;
  m.role = std::string(role_name(*role));
  m.created_at = m.updated_at = s.clock.now_ms();
  MemberTokenRecord token = new_token(s, "cmt_", "member", m.id, out.token);
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, m.account_id));
    if (!account) return ApiError::not_found("No account " + m.account_id + ".");
    PARLEY_ASSIGN_OR_RETURN(auto existing, MemberRepo::find_by_email(c, m.email));
    if (existing) return ApiError{ErrorCode::kConflict, "A team member with this email already exists."};
    PARLEY_TRY(MemberRepo::insert(c, m));
    return MemberRepo::insert_token(c, token);
  }));
  return out;
}

Result<std::vector<MemberRecord>> list_members(Services& s, std::string_view account_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  return MemberRepo::list(c, account_id);
}

Result<MemberRecord> remove_member(Services& s, std::string_view member_id, std::string_view account_id) {
  std::optional<MemberRecord> m;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(m, MemberRepo::find(c, member_id));
    if (!m || (!account_id.empty() && m->account_id != account_id)) {
      return ApiError::not_found("No team member " + std::string(member_id) + ".");
    }
    PARLEY_TRY(MemberRepo::remove(c, member_id));
    return {};
  }));
  return std::move(*m);
}

Result<MemberRecord> remove_member_as(Services& s, const MemberSession& actor, std::string_view member_id) {
  std::optional<MemberRecord> m;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(m, MemberRepo::find(c, member_id));
    if (!m || m->account_id != actor.member.account_id) {
      return ApiError::not_found("No team member " + std::string(member_id) + " in this account.");
    }
    if (m->role == "owner") {
      if (actor.role != Role::kOwner) return ApiError{ErrorCode::kForbidden, "Only an owner can remove an owner."};
      // Two owners removing each other at once must not both see the other one still there.
      PARLEY_TRY(AccountRepo::lock(c, m->account_id));
      PARLEY_ASSIGN_OR_RETURN(auto all, MemberRepo::list(c, m->account_id));
      int owners = 0;
      for (const auto& x : all) owners += x.role == "owner" ? 1 : 0;
      if (owners <= 1) return ApiError{ErrorCode::kConflict, "The account's last owner cannot be removed."};
    }
    PARLEY_TRY(MemberRepo::remove(c, member_id));
    return {};
  }));
  return std::move(*m);
}

Result<LoginResult> login_member(Services& s, std::string_view email, std::string_view password,
                                 int64_t session_ttl_ms) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto member, MemberRepo::find_by_email(c, normalize_email(email)));
  bool ok = false;
  if (member && member->password_hash) {
    ok = verify_password(*member->password_hash, password);
  } else {
    verify_dummy_password(password);
  }
  if (!ok) return ApiError{ErrorCode::kUnauthorized, std::string(kBadLogin)};
  LoginResult out;
  MemberTokenRecord token = new_token(s, "cst_", "session", member->id, out.token);
  token.expires_at = token.created_at + session_ttl_ms;
  out.expires_at = *token.expires_at;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    // The member may have been removed while its password was being checked.
    PARLEY_ASSIGN_OR_RETURN(auto still, MemberRepo::find(c, member->id));
    if (!still) return ApiError{ErrorCode::kUnauthorized, std::string(kBadLogin)};
    PARLEY_TRY(MemberRepo::remove_expired(c, token.created_at));
    return MemberRepo::insert_token(c, token);
  }));
  out.member = std::move(*member);
  return out;
}

Result<MemberSession> authenticate_member_token(Services& s, std::string_view token) {
  if (!is_well_formed_member_token(token)) {
    return ApiError{ErrorCode::kUnauthorized, "The console token is malformed."};
  }
  std::string fingerprint = sha256_hex(token);
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto owner, MemberRepo::find_token(c, fingerprint));
  if (!owner || !constant_time_equal(owner->token.fingerprint, fingerprint)) return bad_token();
  if (owner->token.expires_at && *owner->token.expires_at <= s.clock.now_ms()) return bad_token();
  auto role = parse_role(owner->member.role);
  if (!role) return ApiError::internal("Team member " + owner->member.id + " has an unknown role.");
  MemberSession out;
  out.member = std::move(owner->member);
  out.role = *role;
  out.token_kind = owner->token.kind;
  out.expires_at = owner->token.expires_at;
  return out;
}

Result<void> end_member_token(Services& s, std::string_view token) {
  std::string fingerprint = sha256_hex(token);
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(MemberRepo::remove_token(c, fingerprint));
    return {};
  });
}

}  // namespace parley
