#include "store/lead_repo.h"

#include <algorithm>

#include "store/agent_repo.h"

namespace parley {

namespace {
#define LEAD_COLUMNS                                                                          \
  "id, agent_id, account_id, person_key, email, phone, name, custom_fields, form_id, source, \
   conversation_id, collected_at, last_seen_at, submission_count"

LeadRecord read_lead(const Row& r) {
  LeadRecord l;
  l.id = r.text(0);
  l.agent_id = r.text(1);
  l.account_id = r.text(2);
  l.person_key = r.text(3);
  l.email = r.opt_text(4);
  l.phone = r.opt_text(5);
  l.name = r.opt_text(6);
  l.custom_fields = r.text(7);
  l.form_id = r.opt_text(8);
  l.source = r.text(9);
  l.conversation_id = r.opt_text(10);
  l.collected_at = r.int64(11);
  l.last_seen_at = r.int64(12);
  l.submission_count = r.int64(13);
  return l;
}
}  // namespace

Result<LeadSaved> LeadRepo::save(Connection& c, const LeadRecord& lead) {
  std::optional<LeadRecord> existing;
  PARLEY_TRY(c.query("SELECT " LEAD_COLUMNS " FROM leads WHERE agent_id = $1 AND person_key = $2",
                     {lead.agent_id, lead.person_key},
                     [&](const Row& r) { existing = read_lead(r); }));
  if (!existing) {
    PARLEY_TRY(c.execute("INSERT INTO leads (" LEAD_COLUMNS
                         ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                         {lead.id, lead.agent_id, lead.account_id, lead.person_key, db_opt(lead.email),
                          db_opt(lead.phone), db_opt(lead.name), lead.custom_fields,
                          db_opt(lead.form_id), lead.source, db_opt(lead.conversation_id),
                          lead.collected_at, lead.collected_at, int64_t{1}}));
    PARLEY_TRY(AgentRepo::add_to_counter(c, lead.agent_id, AgentCounter::kLeads, 1));
    LeadRecord stored = lead;
    stored.last_seen_at = lead.collected_at;
    stored.submission_count = 1;
    return LeadSaved{std::move(stored), true};
  }
  LeadRecord l = std::move(*existing);
  if (lead.email) l.email = lead.email;
  if (lead.phone) l.phone = lead.phone;
  if (lead.name) l.name = lead.name;
  if (lead.custom_fields != "[]") l.custom_fields = lead.custom_fields;
  if (lead.form_id) l.form_id = lead.form_id;
  if (lead.conversation_id && !l.conversation_id) l.conversation_id = lead.conversation_id;
  l.last_seen_at = std::max(l.last_seen_at, lead.collected_at);
  l.submission_count += 1;
  PARLEY_TRY(c.execute(
      "UPDATE leads SET email = $2, phone = $3, name = $4, custom_fields = $5, form_id = $6, "
      "conversation_id = $7, last_seen_at = $8, submission_count = $9 WHERE id = $1",
      {l.id, db_opt(l.email), db_opt(l.phone), db_opt(l.name), l.custom_fields, db_opt(l.form_id),
       db_opt(l.conversation_id), l.last_seen_at, l.submission_count}));
  return LeadSaved{std::move(l), false};
}

Result<std::optional<LeadRecord>> LeadRepo::find(Connection& c, std::string_view account_id,
                                                 std::string_view id) {
  std::optional<LeadRecord> out;
  PARLEY_TRY(c.query("SELECT " LEAD_COLUMNS " FROM leads WHERE id = $1 AND account_id = $2",
                     {id, account_id}, [&](const Row& r) { out = read_lead(r); }));
  return out;
}

std::string_view LeadRepo::columns() { return LEAD_COLUMNS; }
LeadRecord LeadRepo::read_row(const Row& r) { return read_lead(r); }

}  // namespace parley
