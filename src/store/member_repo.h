// Team members and their tokens as stored. Tokens are kept only as SHA-256 fingerprints;
// password hashes are Argon2id encoded strings. Stateless; every call takes the connection.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct MemberRecord {
  std::string id;
  std::string account_id;
  std::string email;  // lower case
  std::optional<std::string> name;
  std::string role;  // owner, admin, editor, viewer
  std::optional<std::string> password_hash;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

struct MemberTokenRecord {
  std::string id;
  std::string fingerprint;
  std::string member_id;
  std::string kind;  // session or member
  int64_t created_at = 0;
  std::optional<int64_t> expires_at;
};

// A token joined with its member: what authentication needs, in one read.
struct TokenOwner {
  MemberTokenRecord token;
  MemberRecord member;
};

class MemberRepo {
 public:
  static Result<void> insert(Connection& c, const MemberRecord& m);
  static Result<std::optional<MemberRecord>> find(Connection& c, std::string_view id);
  static Result<std::optional<MemberRecord>> find_by_email(Connection& c, std::string_view email);
  // Newest first.
  static Result<std::vector<MemberRecord>> list(Connection& c, std::string_view account_id);
  // Deletes the member and its tokens; returns false when there was no such member.
  static Result<bool> remove(Connection& c, std::string_view id);

  static Result<void> insert_token(Connection& c, const MemberTokenRecord& t);
  static Result<std::optional<TokenOwner>> find_token(Connection& c, std::string_view fingerprint);
  static Result<bool> remove_token(Connection& c, std::string_view fingerprint);
  // Drops sessions that expired before `now` (housekeeping; expired ones are refused anyway).
  static Result<int64_t> remove_expired(Connection& c, int64_t now);
};

}  // namespace parley
