// Widget identity: a website that knows its visitor signs the visitor's user id with the agent's
// identity secret, hex(HMAC-SHA256(secret, userId)), and the widget passes both. A signature that
// holds binds the conversation to the agent's contact with that external id (made, source
// `identity`, within the plan's contacts); anything else keeps the visitor anonymous and the
// conversation says why. The secret is random, shown once, sealed at rest with the server's key
// (core/secret_box.h, bound to the agent's id) and rotatable; rotating makes every signature made
// with the old one fail. Knows no HTTP; stateless and safe from many threads.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/secret_box.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"
#include "store/services.h"

namespace parley {

// What a conversation says of its visitor (ConversationRecord::identity_status; nothing stored
// means anonymous: no identity was given).
inline constexpr std::string_view kIdentityAnonymous = "anonymous";
inline constexpr std::string_view kIdentityVerified = "verified";
inline constexpr std::string_view kIdentityInvalidSignature = "invalid_signature";
inline constexpr std::string_view kIdentityMissingSignature = "missing_signature";
inline constexpr std::string_view kIdentityNoSecret = "no_secret";
inline constexpr std::string_view kIdentityContactLimitReached = "contact_limit_reached";

inline constexpr size_t kMaxUserIdChars = 200;    // the spec's limit of a contact's external_id
inline constexpr size_t kMaxUserHashChars = 128;  // a hex SHA-256 is 64

// What the page said: `userId` and, when it signed it, `userHash`.
struct IdentityClaim {
  std::string user_id;
  std::optional<std::string> user_hash;
};

// 400 invalid_request naming the field: userId blank or over 200 characters, userHash over 128.
// A userHash that is not a signature at all is not an input error: it is an invalid signature.
Result<void> validate_identity_claim(const IdentityClaim& claim);

// hex(HMAC-SHA256(secret, user_id)) in lower case: what the site's server computes. The key is
// the secret's text as shown (its ASCII bytes), not decoded.
std::string identity_signature(std::string_view secret, std::string_view user_id);

// The claim checked against the agent's secret (compared in constant time; upper-case hex
// accepted): verified, invalid_signature, missing_signature, or no_secret when the agent has
// none this server can open (`box` null, or a secret sealed by another key).
struct IdentityCheck {
  std::string status;
  std::string external_id;  // the claimed user id
};
IdentityCheck check_identity(const SecretBox* box, const AgentRecord& agent,
                             const IdentityClaim& claim);

// Inside the caller's write transaction (which may hold the agent's row already): records the
// check on the conversation and, when verified, binds it to the agent's contact with that
// external id, creating it within the plan's allowance (at the allowance: status
// contact_limit_reached, still anonymous). A conversation already verified keeps its contact
// whatever is claimed later; `conv` is updated to what is stored.
Result<void> apply_identity(Connection& c, Random& random, int64_t now, const AgentRecord& agent,
                            ConversationRecord& conv, const IdentityCheck& check);
// apply_identity for a conversation not stored yet, which the caller inserts afterwards: the
// contact is bound as apply_identity binds it, and `conv` is what to insert.
Result<void> apply_identity_unstored(Connection& c, Random& random, int64_t now,
                                     const AgentRecord& agent, ConversationRecord& conv,
                                     const IdentityCheck& check);

// apply_identity in a transaction of its own, for a claim made after the conversation started
// (Parley.identify on a single-page site): the conversation as stored afterwards.
Result<ConversationRecord> identify_visitor(Services& s, const AgentRecord& agent,
                                            std::string_view conversation_id,
                                            const IdentityCheck& check);

// At a node's start: an error naming the agents (the first ten) whose identity secret this node's
// key cannot open (sealed by another key, or the node has none), and the two ways out, so that a
// misconfigured node refuses to start instead of treating every signed visitor as anonymous.
Result<void> check_identity_secrets(Database& db, const SecretBox* box);

// Making the secret: kCreateOrRotate always makes a new one (the console's button); kCreateOnly
// refuses with 409 conflict when the agent has one (the CLI without --rotate), so a secret in
// use is not replaced by accident.
enum class IdentitySecretMode { kCreateOrRotate, kCreateOnly };

struct NewIdentitySecret {
  std::string agent_id;
  std::string secret;  // 64 hex digits, shown this once
  int64_t created_at = 0;
  bool rotated = false;  // it replaced an earlier one
};

// The account's agent gets a new secret (404 for another account's); 503 unavailable when the
// server has no secret key to seal it with.
Result<NewIdentitySecret> make_identity_secret(Services& s, const SecretBox* box,
                                               std::string_view account_id,
                                               std::string_view agent_id, IdentitySecretMode mode);

}  // namespace parley
