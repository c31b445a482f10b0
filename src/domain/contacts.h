// Contacts: validation of the fields a caller sends, the create-or-update rules, PATCH, DELETE,
// contacts made from leads, and the Contact resource's JSON. Used by the public API and the admin
// CLI (imports); knows no HTTP. Functions taking a Connection run inside the caller's write
// transaction; those taking Services open their own.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.h"
#include "store/services.h"
#include "store/agent_repo.h"
#include "store/contact_repo.h"
#include "store/lead_repo.h"

namespace parley {

// A field as sent: absent (sent = false), null (sent, no value: clears it) or a value.
struct FieldChange {
  bool sent = false;
  std::optional<std::string> value;
};

// Validated contact fields (email already lower-cased). Attributes: name and its value as
// compact JSON, or nothing to remove it.
struct ContactInput {
  FieldChange external_id;
  FieldChange email;
  FieldChange phone;
  FieldChange name;
  std::vector<std::pair<std::string, std::optional<std::string>>> attributes;
  bool attributes_sent = false;

  bool empty() const {
    return !external_id.sent && !email.sent && !phone.sent && !name.sent && !attributes_sent;
  }
};

inline constexpr size_t kMaxContactAttributes = 50;

// Checks every input limit (external_id, email, phone, name, attribute names and values) and
// names the offending field. Unknown fields are ignored.
Result<ContactInput> parse_contact_input(const rapidjson::Value& body);

// Checks a single value; exposed for the list's search parameters and for tests.
bool is_valid_email(std::string_view email);
bool is_valid_phone(std::string_view phone);
bool is_valid_attribute_name(std::string_view name);
std::string lower_ascii(std::string_view s);

struct ContactUpsert {
  ContactRecord contact;
  bool created = false;
};

// Which contact the create-or-update rules change for `in`, given the agent's contact holding its
// external_id and the one holding its email (null when none): the one found by external_id, else
// the one found by email, else a new one; 409 conflict when they disagree.
enum class UpsertMatch { kCreate, kByExternalId, kByEmail };
Result<UpsertMatch> match_upsert(const ContactRecord* by_external_id, const ContactRecord* by_email,
                                 const ContactInput& in);
// The contact with the sent fields applied (attributes merged; 400 past 50 attributes). Times
// are left as they were.
Result<ContactRecord> apply_contact_changes(ContactRecord contact, const ContactInput& in);
// True when the two hold the same fields (identifiers, phone, name, attributes), times aside.
bool same_contact_fields(const ContactRecord& a, const ContactRecord& b);

// The spec's create-or-update rules: found by external_id, else by email (an email-only contact
// receives the external_id), else created with `source` within the plan's allowance.
Result<ContactUpsert> upsert_contact(Connection& c, Random& random, int64_t now,
                                     const AgentRecord& agent, const ContactInput& in,
                                     std::string_view source);
Result<ContactUpsert> upsert_contact(Services& s, const AgentRecord& agent, const ContactInput& in,
                                     std::string_view source);

// PATCH: applies the sent fields to the account's contact; it must keep an external ID, an email
// or a phone. A body with no known field changes nothing.
Result<ContactRecord> patch_contact(Services& s, std::string_view account_id,
                                    std::string_view contact_id, const ContactInput& in);
// DELETE: removes only the contact; its leads and conversations stay.
Result<void> delete_contact(Services& s, std::string_view account_id, std::string_view contact_id);
Result<ContactRecord> get_contact(Connection& c, std::string_view account_id,
                                  std::string_view contact_id);

// The contact for a saved lead (source `lead`): the agent's contact with the lead's email (else
// with its phone) is seen again and gains the name and phone it lacked; otherwise a contact is
// created when the plan's allowance has room (a lead is never refused for it). Call inside the
// lead's write transaction. Nothing happens for a lead with neither email nor phone.
Result<std::optional<ContactRecord>> upsert_contact_from_lead(Connection& c, Random& random,
                                                              int64_t now, const LeadRecord& lead);

}  // namespace parley
