#include "domain/widget_identity.h"

#include <algorithm>
#include <iterator>

#include "core/crypto.h"
#include "core/json.h"
#include "core/log.h"
#include "core/time_format.h"
#include "domain/contacts.h"

namespace parley {

namespace {
constexpr size_t kSecretBytes = 32;

std::string lower_hex(std::string_view s) {
  std::string out(s);
  for (char& ch : out)
    if (ch >= 'A' && ch <= 'F') ch = static_cast<char>(ch - 'A' + 'a');
  return out;
}
}  // namespace

Result<void> validate_identity_claim(const IdentityClaim& claim) {
  if (is_blank(claim.user_id) || utf8_length(claim.user_id) > kMaxUserIdChars)
    return ApiError::invalid("'userId' must be 1 to 200 characters.");
  if (claim.user_hash && utf8_length(*claim.user_hash) > kMaxUserHashChars)
    return ApiError::invalid("'userHash' must be at most 128 characters.");
  return {};
}

std::string identity_signature(std::string_view secret, std::string_view user_id) {
  Sha256Digest mac = hmac_sha256(secret, user_id);
  return to_hex(mac.data(), mac.size());
}

IdentityCheck check_identity(const SecretBox* box, const AgentRecord& agent,
                             const IdentityClaim& claim) {
  IdentityCheck out{std::string(kIdentityNoSecret), claim.user_id};
  if (!agent.identity_secret_sealed) return out;
  if (box == nullptr) return out;
  auto secret = box->open(*agent.identity_secret_sealed, agent.id);
  if (!secret.ok()) {
    log_warn("an agent's identity secret cannot be opened with this server's key",
             {{"agentId", std::string_view(agent.id)}});
    return out;
  }
  if (!claim.user_hash || claim.user_hash->empty()) {
    out.status = kIdentityMissingSignature;
    return out;
  }
  bool holds =
      constant_time_equal(identity_signature(*secret, claim.user_id), lower_hex(*claim.user_hash));
  out.status = holds ? kIdentityVerified : kIdentityInvalidSignature;
  return out;
}

namespace {
// What the conversation becomes with the check (the contact upserted when verified), or nothing
// when that changes nothing.
Result<std::optional<ConversationRecord>> identified(Connection& c, Random& random, int64_t now,
                                                     const AgentRecord& agent,
                                                     const ConversationRecord& conv,
                                                     const IdentityCheck& check) {
  if (conv.identity_status == kIdentityVerified) return std::optional<ConversationRecord>{};
  ConversationRecord next = conv;
  next.identity_status = check.status;
  next.identity_external_id = check.external_id;
  if (check.status == kIdentityVerified) {
    ContactInput in;
    in.external_id = FieldChange{true, check.external_id};
    auto contact = upsert_contact(c, random, now, agent, in, "identity");
    if (contact.ok()) {
      next.contact_id = contact->contact.id;
    } else if (contact.error().code == ErrorCode::kContactLimitReached) {
      next.identity_status = kIdentityContactLimitReached;
    } else {
      return contact.error();
    }
  }
  if (next.identity_status == conv.identity_status &&
      next.identity_external_id == conv.identity_external_id && next.contact_id == conv.contact_id)
    return std::optional<ConversationRecord>{};
  return std::optional<ConversationRecord>(std::move(next));
}
}  // namespace

Result<void> apply_identity(Connection& c, Random& random, int64_t now, const AgentRecord& agent,
                            ConversationRecord& conv, const IdentityCheck& check) {
  PARLEY_ASSIGN_OR_RETURN(auto next, identified(c, random, now, agent, conv, check));
  if (!next) return {};
  PARLEY_TRY(ConversationRepo::set_identity(c, *next));
  conv = std::move(*next);
  return {};
}

Result<void> apply_identity_unstored(Connection& c, Random& random, int64_t now,
                                     const AgentRecord& agent, ConversationRecord& conv,
                                     const IdentityCheck& check) {
  PARLEY_ASSIGN_OR_RETURN(auto next, identified(c, random, now, agent, conv, check));
  if (next) conv = std::move(*next);
  return {};
}

Result<ConversationRecord> identify_visitor(Services& s, const AgentRecord& agent,
                                            std::string_view conversation_id,
                                            const IdentityCheck& check) {
  std::optional<ConversationRecord> out;
  int64_t now = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    // The agent's row first, as a chat turn takes it (contacts are upserted under it too).
    PARLEY_TRY(AgentRepo::lock(c, agent.id));
    PARLEY_TRY(ConversationRepo::lock(c, conversation_id));
    PARLEY_ASSIGN_OR_RETURN(out, ConversationRepo::find(c, agent.account_id, conversation_id));
    if (!out || out->agent_id != agent.id)
      return ApiError::not_found("No conversation '" + std::string(conversation_id) + "'.");
    return apply_identity(c, s.random, now, agent, *out, check);
  }));
  return std::move(*out);
}

Result<void> check_identity_secrets(Database& db, const SecretBox* box) {
  constexpr int64_t kNamed = 10;
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_ASSIGN_OR_RETURN(auto others, AgentRepo::identity_secrets_sealed_by_others(
                                           c, box ? box->key_id() : "", kNamed + 1));
  if (others.empty()) return {};
  std::string listed;
  for (size_t i = 0; i < others.size() && i < kNamed; ++i)
    listed += (listed.empty() ? "" : ", ") + others[i].first + " (key " + others[i].second + ")";
  if (others.size() > kNamed) listed += " and more";
  std::string mine = box ? "this node's key is " + box->key_id() : "this node has no secret key";
  return ApiError::invalid(
      "Widget identity secrets were sealed with another secret key: agents " + listed + "; " +
      mine +
      ". Start every node with the key they were sealed with (--secret-key-file, "
      "PARLEY_SECRET_KEY_FILE or PARLEY_SECRET_KEY), or give those agents new secrets with "
      "`parley admin agent identity-secret AGENT --rotate`.");
}

Result<NewIdentitySecret> make_identity_secret(Services& s, const SecretBox* box,
                                               std::string_view account_id,
                                               std::string_view agent_id, IdentitySecretMode mode) {
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find(c, account_id, agent_id));
    if (!agent) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
  }
  if (box == nullptr)
    return ApiError{ErrorCode::kUnavailable,
                    "Identity secrets are off: this server has no secret key (--secret-key-file "
                    "or PARLEY_SECRET_KEY)."};
  uint8_t bytes[kSecretBytes];
  s.random.fill(bytes, sizeof bytes);
  NewIdentitySecret out;
  out.agent_id = std::string(agent_id);
  out.secret = to_hex(bytes, sizeof bytes);
  std::fill(std::begin(bytes), std::end(bytes), uint8_t{0});
  out.created_at = s.clock.now_ms();
  std::string sealed = box->seal(out.secret, agent_id, s.random);
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(AgentRepo::lock(c, agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find(c, account_id, agent_id));
    if (!agent) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
    out.rotated = agent->identity_secret_sealed.has_value();
    if (out.rotated && mode == IdentitySecretMode::kCreateOnly) {
      return ApiError{ErrorCode::kConflict,
                      "Agent " + agent->id + " already has an identity secret (made " +
                          format_timestamp(agent->identity_secret_at.value_or(0)) +
                          "); it is shown only once. Add --rotate to replace it: signatures made "
                          "with the old secret then stop verifying."};
    }
    return AgentRepo::set_identity_secret(c, agent_id, sealed, out.created_at);
  }));
  return out;
}

}  // namespace parley
