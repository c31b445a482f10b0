// Contact operations: create-or-update, PATCH, DELETE, contacts from leads, and the JSON shape.
#include "domain/contacts.h"

#include <algorithm>

#include "store/account_repo.h"

namespace parley {

namespace {
void apply(const FieldChange& f, std::optional<std::string>& into) {
  if (f.sent) into = f.value;
}

// Merges the sent attributes into the stored JSON object: set or replace in place, null removes,
// new names are appended.
Result<std::string> merge_attributes(std::string_view stored, const ContactInput& in) {
  std::vector<std::pair<std::string, std::string>> attrs;
  rapidjson::Document doc;
  doc.Parse(stored.data(), stored.size());
  if (!doc.HasParseError() && doc.IsObject()) {
    for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it)
      attrs.emplace_back(std::string(it->name.GetString(), it->name.GetStringLength()),
                         to_json(it->value));
  }
  for (const auto& attribute : in.attributes) {
    const auto& name = attribute.first;  // not a structured binding: clang 14 cannot capture one
    const auto& value = attribute.second;
    auto it =
        std::find_if(attrs.begin(), attrs.end(), [&](const auto& a) { return a.first == name; });
    if (!value) {
      if (it != attrs.end()) attrs.erase(it);
    } else if (it != attrs.end()) {
      it->second = *value;
    } else {
      attrs.emplace_back(name, *value);
    }
  }
  if (attrs.size() > kMaxContactAttributes) {
    return ApiError::invalid(
        "'attributes' may hold at most 50 attributes; this change would leave " +
        std::to_string(attrs.size()) + ".");
  }
  std::string out = "{";
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (i > 0) out += ',';
    JsonWriter key;
    key.string(attrs[i].first);
    out += key.str();
    out += ':';
    out += attrs[i].second;
  }
  out += '}';
  return out;
}

ApiError conflict(std::string message) { return {ErrorCode::kConflict, std::move(message)}; }

// 409 when another contact of the agent already holds the external ID or email `in` would set.
Result<void> check_unique(Connection& c, const ContactRecord& target, const ContactInput& in) {
  if (in.external_id.value && in.external_id.value != target.external_id) {
    PARLEY_ASSIGN_OR_RETURN(
        auto other, ContactRepo::find_by_external_id(c, target.agent_id, *in.external_id.value));
    if (other && other->id != target.id)
      return conflict("Another contact of this agent has the external ID '" +
                      *in.external_id.value + "'.");
  }
  if (in.email.value && in.email.value != target.email) {
    PARLEY_ASSIGN_OR_RETURN(auto other,
                            ContactRepo::find_by_email(c, target.agent_id, *in.email.value));
    if (other && other->id != target.id)
      return conflict("Another contact of this agent has the email '" + *in.email.value + "'.");
  }
  return {};
}

// Inserts the contact within the agent's allowance of the plan (403 contact_limit_reached).
// `contacts` is the agent's count, read under the agent's lock.
Result<void> insert_within_allowance(Connection& c, const AgentRecord& agent,
                                     const ContactRecord& contact,
                                     const std::optional<Account>& account, int64_t contacts) {
  if (!account) return ApiError::not_found("No account " + agent.account_id + ".");
  int64_t limit = effective_limits(account->plan, account->overrides).contacts_per_agent;
  if (contacts >= limit) {
    return ApiError{
        ErrorCode::kContactLimitReached,
        "The agent has reached its plan's allowance of " + std::to_string(limit) + " contacts."};
  }
  return ContactRepo::insert_counted(c, contact);
}

}  // namespace

Result<ContactRecord> apply_contact_changes(ContactRecord contact, const ContactInput& in) {
  apply(in.external_id, contact.external_id);
  apply(in.email, contact.email);
  apply(in.phone, contact.phone);
  apply(in.name, contact.name);
  if (in.attributes_sent) {
    PARLEY_ASSIGN_OR_RETURN(contact.attributes, merge_attributes(contact.attributes, in));
  }
  return contact;
}

bool same_contact_fields(const ContactRecord& a, const ContactRecord& b) {
  return a.external_id == b.external_id && a.email == b.email && a.phone == b.phone &&
         a.name == b.name && a.attributes == b.attributes;
}

Result<UpsertMatch> match_upsert(const ContactRecord* by_external_id, const ContactRecord* by_email,
                                 const ContactInput& in) {
  if (by_external_id) {
    if (by_email && by_email->id != by_external_id->id) {
      return conflict("The email '" + *in.email.value +
                      "' belongs to another contact of this agent.");
    }
    return UpsertMatch::kByExternalId;
  }
  if (by_email) {
    if (in.external_id.value && by_email->external_id) {
      return conflict("The email '" + *in.email.value +
                      "' belongs to a contact with a different external ID.");
    }
    return UpsertMatch::kByEmail;
  }
  return UpsertMatch::kCreate;
}

Result<ContactUpsert> upsert_contact(Connection& c, Random& random, int64_t now,
                                     const AgentRecord& agent, const ContactInput& in,
                                     std::string_view source) {
  if (!in.external_id.value && !in.email.value) {
    return ApiError::invalid("'external_id' or 'email' is required.");
  }
  // Upserts of one agent's contacts run in turn: a read-modify-write of the one found, or an
  // insert that a concurrent upsert of the same person must see. The lock, the account and the
  // agent's count of contacts (which bound a new contact), and the lookup of the contact go in
  // one round trip; a new contact and its count then go with the COMMIT.
  bool agent_found = false;
  PARLEY_TRY(AgentRepo::lock_later(c, agent.id, agent_found));
  std::optional<Account> account;
  PARLEY_TRY(AccountRepo::find_later(c, agent.account_id, account));
  int64_t contacts = 0;  // filled by the lookup's round trip, which always runs (an id is required)
  PARLEY_TRY(ContactRepo::count_later(c, agent.id, contacts));
  PARLEY_ASSIGN_OR_RETURN(auto found, ContactRepo::find_by_external_id_or_email(
                                          c, agent.id, in.external_id.value, in.email.value));
  std::optional<ContactRecord>& by_external_id = found.by_external_id;
  std::optional<ContactRecord>& by_email = found.by_email;
  PARLEY_ASSIGN_OR_RETURN(UpsertMatch match,
                          match_upsert(by_external_id ? &*by_external_id : nullptr,
                                       by_email ? &*by_email : nullptr, in));
  std::optional<ContactRecord> target;
  if (match == UpsertMatch::kByExternalId) target = std::move(by_external_id);
  if (match == UpsertMatch::kByEmail) target = std::move(by_email);
  if (target) {
    PARLEY_ASSIGN_OR_RETURN(auto updated, apply_contact_changes(std::move(*target), in));
    updated.last_seen_at = std::max(updated.last_seen_at, now);
    updated.updated_at = now;
    PARLEY_TRY(ContactRepo::update(c, updated));
    return ContactUpsert{std::move(updated), false};
  }
  ContactRecord fresh;
  fresh.id = new_ordered_id(random, "ctc_");
  fresh.agent_id = agent.id;
  fresh.account_id = agent.account_id;
  fresh.source = std::string(source);
  fresh.first_seen_at = fresh.last_seen_at = fresh.created_at = fresh.updated_at = now;
  PARLEY_ASSIGN_OR_RETURN(fresh, apply_contact_changes(std::move(fresh), in));
  PARLEY_TRY(insert_within_allowance(c, agent, fresh, account, contacts));
  return ContactUpsert{std::move(fresh), true};
}

Result<ContactUpsert> upsert_contact(Services& s, const AgentRecord& agent, const ContactInput& in,
                                     std::string_view source) {
  std::optional<ContactUpsert> out;
  int64_t now = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(out, upsert_contact(c, s.random, now, agent, in, source));
    return {};
  }));
  return std::move(*out);
}

Result<ContactRecord> get_contact(Connection& c, std::string_view account_id,
                                  std::string_view contact_id) {
  PARLEY_ASSIGN_OR_RETURN(auto contact, ContactRepo::find(c, account_id, contact_id));
  if (!contact)
    return ApiError::not_found("No contact " + std::string(contact_id) + " in this account.");
  return std::move(*contact);
}

Result<ContactRecord> patch_contact(Services& s, std::string_view account_id,
                                    std::string_view contact_id, const ContactInput& in) {
  std::optional<ContactRecord> out;
  int64_t now = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ContactRepo::lock(c, contact_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(auto contact, get_contact(c, account_id, contact_id));
    if (in.empty()) {
      out = std::move(contact);
      return {};
    }
    PARLEY_TRY(check_unique(c, contact, in));
    PARLEY_ASSIGN_OR_RETURN(auto updated, apply_contact_changes(std::move(contact), in));
    if (!updated.external_id && !updated.email && !updated.phone) {
      return ApiError::invalid(
          "A contact must keep an 'external_id', an 'email' or a 'phone'; this change would clear "
          "all three.");
    }
    updated.updated_at = now;
    PARLEY_TRY(ContactRepo::update(c, updated));
    out = std::move(updated);
    return {};
  }));
  return std::move(*out);
}

Result<void> delete_contact(Services& s, std::string_view account_id, std::string_view contact_id) {
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(bool removed, ContactRepo::remove(c, account_id, contact_id));
    if (!removed)
      return ApiError::not_found("No contact " + std::string(contact_id) + " in this account.");
    return {};
  });
}

Result<std::optional<ContactRecord>> upsert_contact_from_lead(Connection& c, Random& random,
                                                              int64_t now, const LeadRecord& lead) {
  std::optional<std::string> email =
      lead.email ? std::optional(lower_ascii(*lead.email)) : std::nullopt;
  if (email && !is_valid_email(*email)) email.reset();
  std::optional<std::string> phone =
      lead.phone && is_valid_phone(*lead.phone) ? lead.phone : std::nullopt;
  if (!email && !phone) return std::optional<ContactRecord>();
  PARLEY_TRY(AgentRepo::lock(c, lead.agent_id));  // as upsert_contact
  std::optional<ContactRecord> found;
  if (email) {
    PARLEY_ASSIGN_OR_RETURN(found, ContactRepo::find_by_email(c, lead.agent_id, *email));
  }
  if (!found && !email) {
    PARLEY_ASSIGN_OR_RETURN(found, ContactRepo::find_by_phone(c, lead.agent_id, *phone));
  }
  if (found) {
    if (!found->name && lead.name && utf8_length(*lead.name) <= 100) found->name = lead.name;
    if (!found->phone && phone) found->phone = phone;
    found->last_seen_at = std::max(found->last_seen_at, lead.last_seen_at);
    found->updated_at = now;
    PARLEY_TRY(ContactRepo::update(c, *found));
    return found;
  }
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, lead.agent_id));
  if (!agent) return std::optional<ContactRecord>();
  ContactRecord fresh;
  fresh.id = new_ordered_id(random, "ctc_");
  fresh.agent_id = lead.agent_id;
  fresh.account_id = lead.account_id;
  fresh.email = email;
  fresh.phone = phone;
  if (lead.name && utf8_length(*lead.name) <= 100) fresh.name = lead.name;
  fresh.source = "lead";
  fresh.first_seen_at = lead.collected_at;
  fresh.last_seen_at = lead.last_seen_at;
  fresh.created_at = fresh.updated_at = now;
  // A lead beyond the allowance is kept without a contact.
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, agent->account_id));
  PARLEY_ASSIGN_OR_RETURN(int64_t contacts, ContactRepo::count(c, lead.agent_id));  // locked above
  auto inserted = insert_within_allowance(c, *agent, fresh, account, contacts);
  if (!inserted.ok() && (inserted.error().code == ErrorCode::kContactLimitReached ||
                         inserted.error().code == ErrorCode::kNotFound)) {
    return std::optional<ContactRecord>();
  }
  PARLEY_TRY(inserted);
  return std::optional<ContactRecord>(std::move(fresh));
}

}  // namespace parley
