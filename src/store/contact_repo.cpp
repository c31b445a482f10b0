#include "store/contact_repo.h"

#include "store/pipelined.h"
#include "store/placeholders.h"

namespace parley {

namespace {
#define CONTACT_COLUMNS                                                             \
  "id, agent_id, account_id, external_id, email, phone, name, attributes, source, " \
  "first_seen_at, last_seen_at, created_at, updated_at"

ContactRecord read_contact(const Row& r) {
  ContactRecord c;
  c.id = r.text(0);
  c.agent_id = r.text(1);
  c.account_id = r.text(2);
  c.external_id = r.opt_text(3);
  c.email = r.opt_text(4);
  c.phone = r.opt_text(5);
  c.name = r.opt_text(6);
  c.attributes = r.text(7);
  c.source = r.text(8);
  c.first_seen_at = r.int64(9);
  c.last_seen_at = r.int64(10);
  c.created_at = r.int64(11);
  c.updated_at = r.int64(12);
  return c;
}

Result<std::optional<ContactRecord>> find_one(Connection& c, std::string_view where,
                                              Params params) {
  std::optional<ContactRecord> out;
  std::string sql = "SELECT " CONTACT_COLUMNS " FROM contacts WHERE ";
  sql += where;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out = read_contact(r); }));
  return out;
}

constexpr size_t kContactColumns = 13;
constexpr size_t kInsertRows = 100;  // rows per INSERT of a bulk insert (1,300 parameters)

void append_params(std::vector<DbValue>& params, const ContactRecord& v) {
  using V = std::string_view;  // the record outlives the statement
  params.insert(params.end(),
                {V(v.id), V(v.agent_id), V(v.account_id), db_opt(v.external_id), db_opt(v.email),
                 db_opt(v.phone), db_opt(v.name), V(v.attributes), V(v.source), v.first_seen_at,
                 v.last_seen_at, v.created_at, v.updated_at});
}

// Sent without waiting (store/pipelined.h): a failure (a duplicate) fails the transaction at its
// next statement that waits, or at COMMIT.
Result<void> insert_row(Connection& c, const ContactRecord& v) {
  PARLEY_TRY(execute_later(c,
                           "INSERT INTO contacts (" CONTACT_COLUMNS
                           ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                           {v.id, v.agent_id, v.account_id, db_opt(v.external_id), db_opt(v.email),
                            db_opt(v.phone), db_opt(v.name), v.attributes, v.source,
                            v.first_seen_at, v.last_seen_at, v.created_at, v.updated_at}));
  return {};
}

Result<void> add_to_count(Connection& c, std::string_view agent_id, int64_t delta) {
  PARLEY_TRY(
      c.execute("INSERT INTO contact_counts (agent_id, count) VALUES ($1, $2) "
                "ON CONFLICT (agent_id) DO UPDATE SET count = contact_counts.count + $2",
                {agent_id, delta}));
  return {};
}
}  // namespace

Result<void> ContactRepo::insert_counted(Connection& c, const ContactRecord& v) {
  PARLEY_TRY(execute_later(c,
                           "INSERT INTO contact_counts (agent_id, count) VALUES ($1, 1) "
                           "ON CONFLICT (agent_id) DO UPDATE SET count = contact_counts.count + 1",
                           {v.agent_id}));
  return insert_row(c, v);
}

Result<bool> ContactRepo::insert_all_within_cap(Connection& c,
                                                const std::vector<ContactRecord>& contacts,
                                                int64_t cap) {
  if (contacts.empty()) return true;
  auto n = static_cast<int64_t>(contacts.size());
  bool counted = false;
  PARLEY_TRY(c.query(
      "INSERT INTO contact_counts (agent_id, count) SELECT $1, CAST($3 AS BIGINT) "
      "WHERE CAST($3 AS BIGINT) <= CAST($2 AS BIGINT) "
      "ON CONFLICT (agent_id) DO UPDATE SET count = contact_counts.count + CAST($3 AS BIGINT) "
      "WHERE contact_counts.count + CAST($3 AS BIGINT) <= CAST($2 AS BIGINT) RETURNING count",
      {contacts.front().agent_id, cap, n}, [&](const Row&) { counted = true; }));
  if (!counted) return false;
  // kInsertRows rows to a statement, the rest one by one: two statement texts in all.
  static const std::string many = [] {
    return "INSERT INTO contacts (" CONTACT_COLUMNS ") VALUES " +
           placeholder_rows(kInsertRows, kContactColumns);
  }();
  size_t at = 0;
  std::vector<DbValue> params;
  for (; contacts.size() - at >= kInsertRows; at += kInsertRows) {
    params.clear();
    for (size_t i = at; i < at + kInsertRows; ++i) append_params(params, contacts[i]);
    PARLEY_TRY(c.query(many, params, [](const Row&) {}));
  }
  for (; at < contacts.size(); ++at) PARLEY_TRY(insert_row(c, contacts[at]));
  return true;
}

Result<std::vector<ContactRecord>> ContactRepo::find_holding_any(
    Connection& c, std::string_view agent_id, const std::vector<std::string>& external_ids,
    const std::vector<std::string>& emails) {
  // One statement text whatever the batch: the lists are padded with NULL, which matches nothing.
  // A UNION of two lookups, so each uses its unique index (an OR of the two would scan the
  // agent's contacts on SQLite).
  static const std::string sql = [] {
    std::string q =
        "SELECT " CONTACT_COLUMNS " FROM contacts WHERE agent_id = $1 AND external_id IN (";
    q += placeholders(2, kMaxLookup);
    q += ") UNION SELECT " CONTACT_COLUMNS " FROM contacts WHERE agent_id = $1 AND email IN (";
    q += placeholders(2 + kMaxLookup, kMaxLookup);
    return q + ")";
  }();
  if (external_ids.size() > kMaxLookup || emails.size() > kMaxLookup)
    return ApiError::internal("Too many contacts looked up at once.");
  std::vector<DbValue> params;
  params.reserve(1 + 2 * kMaxLookup);
  params.emplace_back(agent_id);
  for (const auto* list : {&external_ids, &emails}) {
    for (size_t i = 0; i < kMaxLookup; ++i)
      params.push_back(i < list->size() ? DbValue(std::string_view((*list)[i])) : db_null());
  }
  std::vector<ContactRecord> out;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out.push_back(read_contact(r)); }));
  return out;
}

Result<bool> ContactRepo::lock(Connection& c, std::string_view id) {
  return c.lock_row("contacts", id);
}

Result<void> ContactRepo::update(Connection& c, const ContactRecord& v) {
  PARLEY_TRY(execute_later(
      c,
      "UPDATE contacts SET external_id = $2, email = $3, phone = $4, name = $5, attributes = $6, "
      "last_seen_at = $7, updated_at = $8 WHERE id = $1",
      {v.id, db_opt(v.external_id), db_opt(v.email), db_opt(v.phone), db_opt(v.name), v.attributes,
       v.last_seen_at, v.updated_at}));
  return {};
}

Result<bool> ContactRepo::remove(Connection& c, std::string_view account_id, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(auto contact, find(c, account_id, id));
  if (!contact) return false;
  PARLEY_TRY(c.execute("DELETE FROM contacts WHERE id = $1", {id}));
  PARLEY_TRY(add_to_count(c, contact->agent_id, -1));
  return true;
}

Result<std::optional<ContactRecord>> ContactRepo::find(Connection& c, std::string_view account_id,
                                                       std::string_view id) {
  return find_one(c, "id = $1 AND account_id = $2", {id, account_id});
}

Result<std::optional<ContactRecord>> ContactRepo::find_by_external_id(
    Connection& c, std::string_view agent_id, std::string_view external_id) {
  return find_one(c, "agent_id = $1 AND external_id = $2", {agent_id, external_id});
}

Result<std::optional<ContactRecord>> ContactRepo::find_by_email(Connection& c,
                                                                std::string_view agent_id,
                                                                std::string_view email) {
  return find_one(c, "agent_id = $1 AND email = $2", {agent_id, email});
}

Result<ContactRepo::Matches> ContactRepo::find_by_external_id_or_email(
    Connection& c, std::string_view agent_id, const std::optional<std::string>& external_id,
    const std::optional<std::string>& email) {
  Matches out;
  if (!external_id && !email) return out;
  // A NULL parameter matches no row ("= NULL" is never true). Two lookups, each on its unique
  // index (as find_holding_any: an OR would scan the agent's contacts on SQLite).
  PARLEY_TRY(c.query(
      "SELECT " CONTACT_COLUMNS
      " FROM contacts WHERE agent_id = $1 AND external_id = $2 UNION ALL SELECT " CONTACT_COLUMNS
      " FROM contacts WHERE agent_id = $1 AND email = $3",
      {agent_id, db_opt(external_id), db_opt(email)}, [&](const Row& r) {
        ContactRecord found = read_contact(r);
        if (external_id && found.external_id == external_id) out.by_external_id = found;
        if (email && found.email == email) out.by_email = std::move(found);
      }));
  return out;
}

Result<std::optional<ContactRecord>> ContactRepo::find_by_phone(Connection& c,
                                                                std::string_view agent_id,
                                                                std::string_view phone) {
  // Several contacts may share a phone; the oldest one is the person's.
  return find_one(c, "agent_id = $1 AND phone = $2 ORDER BY created_at, id LIMIT 1",
                  {agent_id, phone});
}

Result<void> ContactRepo::count_later(Connection& c, std::string_view agent_id, int64_t& count) {
  count = 0;
  return query_later(c, "SELECT count FROM contact_counts WHERE agent_id = $1", {agent_id},
                     [&count](const Row& r) { count = r.int64(0); });
}

Result<int64_t> ContactRepo::count(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(
      auto n, c.query_int("SELECT count FROM contact_counts WHERE agent_id = $1", {agent_id}));
  return n.value_or(0);
}

Result<Page<ContactRecord>> ContactRepo::list(Connection& c, std::string_view agent_id,
                                              const ContactFilter& filter, const PageQuery& q) {
  std::string scope = "agent_id = $1";
  std::vector<DbValue> params{std::string(agent_id)};
  if (filter.email) {
    params.emplace_back(*filter.email);
    scope += " AND email = $" + std::to_string(params.size());
  }
  if (filter.external_id) {
    params.emplace_back(*filter.external_id);
    scope += " AND external_id = $" + std::to_string(params.size());
  }
  const KeysetTable table{"contacts", CONTACT_COLUMNS, "created_at", "updated_at"};
  std::vector<ContactRecord> rows;
  PARLEY_TRY(query_keyset_page(c, table, scope, params, q,
                               [&](const Row& r) { rows.push_back(read_contact(r)); }));
  return finish_page(std::move(rows), q.limit);
}

}  // namespace parley
