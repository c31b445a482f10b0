#include "store/erasure_repo.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "store/agent_repo.h"

namespace parley {

namespace {
using Ids = std::set<std::string>;

Result<void> collect(Connection& c, std::string_view sql, Params params, Ids& into) {
  return c.query(sql, params, [&](const Row& r) {
    if (!r.is_null(0)) into.insert(r.text(0));
  });
}

std::string digits_of(std::string_view s) {
  std::string out;
  for (char ch : s)
    if (ch >= '0' && ch <= '9') out += ch;
  return out;
}

// A record table (form_submissions, bookings, return_requests) erased by id; its events and
// deliveries with it. `table` comes from code.
Result<int64_t> erase_records(Connection& c, std::string_view table, const Ids& ids,
                              ErasureCounts& n) {
  int64_t removed = 0;
  for (const auto& id : ids) {
    PARLEY_ASSIGN_OR_RETURN(auto ev, purge_events_of(c, id));
    n.events += ev.events;
    n.deliveries += ev.deliveries;
    PARLEY_ASSIGN_OR_RETURN(
        int64_t k, c.execute("DELETE FROM " + std::string(table) + " WHERE id = $1", {id}));
    removed += k;
  }
  return removed;
}
}  // namespace

std::string contains_pattern(std::string_view text) {
  std::string out = "%";
  for (char ch : text) {
    if (ch == '%' || ch == '_' || ch == '\\') out += '\\';
    out += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
  }
  return out + "%";
}

Result<void> scrub_database_files(Database& db) {
  if (db.backend() != "sqlite") return {};
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  // One row: busy (1 when it could not finish), frames in the log, frames copied. It cannot
  // while another connection checkpoints (the server's checkpointer does every 250 ms) or a
  // reader still uses old frames: tried again for up to ten seconds.
  for (int attempt = 0; attempt < 100; ++attempt) {
    int64_t busy = 1;
    PARLEY_TRY(
        c.query("PRAGMA wal_checkpoint(TRUNCATE)", {}, [&](const Row& r) { busy = r.int64(0); }));
    if (busy == 0) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return ApiError{ErrorCode::kUnavailable,
                  "The database's write-ahead log could not be emptied (busy readers); try again."};
}

Result<std::optional<std::string>> ErasureRepo::account_of(Connection& c,
                                                           std::string_view contact_id) {
  std::optional<std::string> out;
  PARLEY_TRY(c.query("SELECT account_id FROM contacts WHERE id = $1", {contact_id},
                     [&](const Row& r) { out = r.text(0); }));
  return out;
}

Result<ErasureCounts> ErasureRepo::erase(Connection& c, const ContactRecord& contact) {
  ErasureCounts n;
  const std::string& agent = contact.agent_id;
  // The email lower-cased as stored in leads' person_key, and as a LIKE pattern.
  DbValue email_value = db_null(), pattern = db_null();
  std::string lower_email, like;
  if (contact.email && !contact.email->empty()) {
    lower_email = *contact.email;
    std::transform(lower_email.begin(), lower_email.end(), lower_email.begin(), [](char ch) {
      return (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
    });
    like = contains_pattern(lower_email);
    email_value = std::string_view(lower_email);
    pattern = std::string_view(like);
  }
  std::string phone_digits = contact.phone ? digits_of(*contact.phone) : std::string();
  DbValue phone = contact.phone ? DbValue(std::string_view(*contact.phone)) : db_null();
  DbValue digits = phone_digits.empty() ? db_null() : DbValue(std::string_view(phone_digits));

  // The person's leads and records.
  Ids leads, forms, bookings, returns, conversations;
  PARLEY_TRY(
      collect(c,
              "SELECT id FROM leads WHERE agent_id = $1 AND (person_key = $2 OR lower(email) = $2 "
              "OR person_key = $3 OR phone = $4)",
              {agent, email_value, digits, phone}, leads));
  PARLEY_TRY(collect(
      c,
      "SELECT id FROM form_submissions WHERE agent_id = $1 AND lower(fields) LIKE $2 ESCAPE '\\'",
      {agent, pattern}, forms));
  PARLEY_TRY(collect(c, "SELECT id FROM bookings WHERE agent_id = $1 AND lower(email) = $2",
                     {agent, email_value}, bookings));
  PARLEY_TRY(collect(c, "SELECT id FROM return_requests WHERE agent_id = $1 AND lower(email) = $2",
                     {agent, email_value}, returns));

  // Their conversations: bound to the contact, linked from its leads or records, or holding the
  // email in a message, the rating's comment or the page address.
  PARLEY_TRY(collect(c, "SELECT id FROM conversations WHERE agent_id = $1 AND contact_id = $2",
                     {agent, contact.id}, conversations));
  for (const auto& id : leads)
    PARLEY_TRY(collect(c, "SELECT conversation_id FROM leads WHERE id = $1", {id}, conversations));
  for (const auto& [table, ids] : {std::pair{"form_submissions", &forms},
                                   {"bookings", &bookings},
                                   {"return_requests", &returns}}) {
    for (const auto& id : *ids)
      PARLEY_TRY(collect(c, "SELECT conversation_id FROM " + std::string(table) + " WHERE id = $1",
                         {id}, conversations));
  }
  PARLEY_TRY(collect(
      c,
      "SELECT DISTINCT m.conversation_id FROM messages m JOIN conversations v "
      "ON v.id = m.conversation_id WHERE v.agent_id = $1 AND lower(m.content) LIKE $2 ESCAPE '\\'",
      {agent, pattern}, conversations));
  PARLEY_TRY(
      collect(c,
              "SELECT id FROM conversations WHERE agent_id = $1 AND (lower(csat_comment) LIKE $2 "
              "ESCAPE '\\' OR lower(page) LIKE $2 ESCAPE '\\')",
              {agent, pattern}, conversations));
  // The records of those conversations are the person's too.
  for (const auto& id : conversations) {
    PARLEY_TRY(
        collect(c, "SELECT id FROM form_submissions WHERE conversation_id = $1", {id}, forms));
    PARLEY_TRY(collect(c, "SELECT id FROM bookings WHERE conversation_id = $1", {id}, bookings));
    PARLEY_TRY(
        collect(c, "SELECT id FROM return_requests WHERE conversation_id = $1", {id}, returns));
  }

  for (const auto& id : conversations) {
    PARLEY_ASSIGN_OR_RETURN(auto purged, purge_conversation(c, id));
    n.conversations += purged;
  }
  PARLEY_ASSIGN_OR_RETURN(n.form_submissions, erase_records(c, "form_submissions", forms, n));
  PARLEY_ASSIGN_OR_RETURN(n.bookings, erase_records(c, "bookings", bookings, n));
  PARLEY_ASSIGN_OR_RETURN(n.return_requests, erase_records(c, "return_requests", returns, n));
  for (const auto& id : leads) {
    PARLEY_ASSIGN_OR_RETURN(auto ev, purge_events_of(c, id));
    n.events += ev.events;
    n.deliveries += ev.deliveries;
    PARLEY_ASSIGN_OR_RETURN(int64_t k, c.execute("DELETE FROM leads WHERE id = $1", {id}));
    n.leads += k;
  }
  if (n.leads > 0) PARLEY_TRY(AgentRepo::add_to_counter(c, agent, AgentCounter::kLeads, -n.leads));

  // Frozen event bodies of this agent's webhooks and stored API answers of its account that
  // still hold the email (an event about a record already gone, a contact's API read).
  PARLEY_ASSIGN_OR_RETURN(
      int64_t bodies,
      c.execute("DELETE FROM webhook_deliveries WHERE webhook_id IN "
                "(SELECT id FROM webhooks WHERE agent_id = $1) AND lower(payload) LIKE $2 "
                "ESCAPE '\\'",
                {agent, pattern}));
  n.deliveries += bodies;
  PARLEY_ASSIGN_OR_RETURN(
      n.idempotency_keys,
      c.execute("DELETE FROM idempotency_keys WHERE account_id = $1 AND "
                "(lower(body) LIKE $2 ESCAPE '\\' OR lower(headers) LIKE $2 ESCAPE '\\')",
                {contact.account_id, pattern}));

  PARLEY_ASSIGN_OR_RETURN(bool removed, ContactRepo::remove(c, contact.account_id, contact.id));
  n.contacts = removed ? 1 : 0;
  return n;
}

}  // namespace parley
