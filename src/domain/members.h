// Team members of an account and how they authenticate to the console: roles, member tokens
// (cmt_, made by an operator, valid until the member is removed), login with email and password
// giving a session token (cst_, valid for a configured time), logout. Tokens are random, shown
// once and stored only as SHA-256 fingerprints. Shared by the console and the admin CLI;
// stateless and thread-safe (state lives in the database).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "store/services.h"
#include "store/member_repo.h"

namespace parley {

// Ordered so that a higher role holds every right of a lower one.
enum class Role { kViewer = 0, kEditor = 1, kAdmin = 2, kOwner = 3 };

std::optional<Role> parse_role(std::string_view name);
std::string_view role_name(Role role);
inline bool role_at_least(Role have, Role need) { return static_cast<int>(have) >= static_cast<int>(need); }

struct NewMember {
  std::string account_id;
  std::string email;
  std::string role;
  std::optional<std::string> name;
  std::optional<std::string> password;  // none: the member uses its member token only
};

struct CreatedMember {
  MemberRecord record;
  std::string token;  // cmt_..., shown once, never stored
};

// The member behind a presented token.
struct MemberSession {
  MemberRecord member;
  Role role = Role::kViewer;
  std::string token_kind;  // session or member
  std::optional<int64_t> expires_at;
};

struct LoginResult {
  MemberRecord member;
  std::string token;  // cst_..., shown once, never stored
  int64_t expires_at = 0;
};

// True for cst_ or cmt_ followed by 40 letters and digits.
bool is_well_formed_member_token(std::string_view token);
// Lower-cases ASCII letters; emails are compared and stored that way.
std::string normalize_email(std::string_view email);

// 400 naming the field for a bad email, role, name or password; 404 for a missing account;
// 409 conflict when the email already belongs to a member.
Result<CreatedMember> create_member(Services& s, const NewMember& in);
Result<std::vector<MemberRecord>> list_members(Services& s, std::string_view account_id);
// Removes the member and ends its sessions and tokens. The account's API keys it created stay.
// `account_id` empty: any account (operator tools).
Result<MemberRecord> remove_member(Services& s, std::string_view member_id, std::string_view account_id = {});
// A team member removing another from the console: owners remove anyone, admins anyone but an
// owner (403 forbidden); the account's last owner stays (409 conflict). Another account's member:
// 404.
Result<MemberRecord> remove_member_as(Services& s, const MemberSession& actor, std::string_view member_id);

// 401 unauthorized with one message for an unknown email, a wrong password and a member without
// a password, after the same Argon2id work in each case.
Result<LoginResult> login_member(Services& s, std::string_view email, std::string_view password,
                                 int64_t session_ttl_ms);
// 401 unauthorized for a malformed, unknown, expired or ended token.
Result<MemberSession> authenticate_member_token(Services& s, std::string_view token);
// Ends the presented token (a session, or a member token when that is what was presented).
Result<void> end_member_token(Services& s, std::string_view token);

}  // namespace parley
