#include "store/record_repo.h"

namespace parley {

namespace {
#define FORM_COLUMNS \
  "id, agent_id, account_id, form_id, form_name, fields, conversation_id, created_at"
#define BOOKING_COLUMNS                                                                          \
  "id, agent_id, account_id, provider, event_title, start_at, length_minutes, time_zone, name, " \
  "email, provider_status, conversation_id, created_at"
#define RETURN_COLUMNS                                                                             \
  "id, agent_id, account_id, order_id, email, name, reason, status, handled_at, conversation_id, " \
  "created_at"

FormSubmissionRecord read_form(const Row& r) {
  return {r.text(0),     r.text(1), r.text(2),     r.text(3),
          r.opt_text(4), r.text(5), r.opt_text(6), r.int64(7)};
}

BookingRecord read_booking(const Row& r) {
  BookingRecord b;
  b.id = r.text(0);
  b.agent_id = r.text(1);
  b.account_id = r.text(2);
  b.provider = r.text(3);
  b.event_title = r.opt_text(4);
  b.start_at = r.int64(5);
  b.length_minutes = r.int64(6);
  b.time_zone = r.text(7);
  b.name = r.opt_text(8);
  b.email = r.opt_text(9);
  b.provider_status = r.text(10);
  b.conversation_id = r.opt_text(11);
  b.created_at = r.int64(12);
  return b;
}

ReturnRequestRecord read_return(const Row& r) {
  ReturnRequestRecord x;
  x.id = r.text(0);
  x.agent_id = r.text(1);
  x.account_id = r.text(2);
  x.order_id = r.opt_text(3);
  x.email = r.opt_text(4);
  x.name = r.opt_text(5);
  x.reason = r.opt_text(6);
  x.status = r.text(7);
  x.handled_at = r.opt_int64(8);
  x.conversation_id = r.opt_text(9);
  x.created_at = r.int64(10);
  return x;
}

template <typename T, typename Reader>
Result<std::optional<T>> find_one(Connection& c, std::string_view sql, std::string_view agent_id,
                                  std::string_view id, Reader read) {
  std::optional<T> out;
  PARLEY_TRY(c.query(sql, {agent_id, id}, [&](const Row& r) { out = read(r); }));
  return out;
}

template <typename T, typename Reader>
Result<std::vector<T>> latest(Connection& c, std::string_view sql, std::string_view agent_id,
                              int64_t limit, Reader read) {
  std::vector<T> out;
  PARLEY_TRY(c.query(sql, {agent_id, limit}, [&](const Row& r) { out.push_back(read(r)); }));
  return out;
}
}  // namespace

Result<void> RecordRepo::insert(Connection& c, const FormSubmissionRecord& r) {
  PARLEY_TRY(c.execute("INSERT INTO form_submissions (" FORM_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                       {r.id, r.agent_id, r.account_id, r.form_id, db_opt(r.form_name), r.fields,
                        db_opt(r.conversation_id), r.created_at}));
  return {};
}

Result<void> RecordRepo::insert(Connection& c, const BookingRecord& r) {
  PARLEY_TRY(c.execute("INSERT INTO bookings (" BOOKING_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                       {r.id, r.agent_id, r.account_id, r.provider, db_opt(r.event_title),
                        r.start_at, r.length_minutes, r.time_zone, db_opt(r.name), db_opt(r.email),
                        r.provider_status, db_opt(r.conversation_id), r.created_at}));
  return {};
}

Result<void> RecordRepo::insert(Connection& c, const ReturnRequestRecord& r) {
  PARLEY_TRY(c.execute(
      "INSERT INTO return_requests (" RETURN_COLUMNS
      ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
      {r.id, r.agent_id, r.account_id, db_opt(r.order_id), db_opt(r.email), db_opt(r.name),
       db_opt(r.reason), r.status, db_opt(r.handled_at), db_opt(r.conversation_id), r.created_at}));
  return {};
}

Result<std::optional<FormSubmissionRecord>> RecordRepo::find_form_submission(
    Connection& c, std::string_view agent_id, std::string_view id) {
  return find_one<FormSubmissionRecord>(
      c, "SELECT " FORM_COLUMNS " FROM form_submissions WHERE agent_id = $1 AND id = $2", agent_id,
      id, read_form);
}

Result<std::optional<BookingRecord>> RecordRepo::find_booking(Connection& c,
                                                              std::string_view agent_id,
                                                              std::string_view id) {
  return find_one<BookingRecord>(
      c, "SELECT " BOOKING_COLUMNS " FROM bookings WHERE agent_id = $1 AND id = $2", agent_id, id,
      read_booking);
}

Result<std::optional<ReturnRequestRecord>> RecordRepo::find_return_request(
    Connection& c, std::string_view agent_id, std::string_view id) {
  return find_one<ReturnRequestRecord>(
      c, "SELECT " RETURN_COLUMNS " FROM return_requests WHERE agent_id = $1 AND id = $2", agent_id,
      id, read_return);
}

Result<std::vector<FormSubmissionRecord>> RecordRepo::latest_form_submissions(
    Connection& c, std::string_view agent_id, int64_t limit) {
  return latest<FormSubmissionRecord>(c,
                                      "SELECT " FORM_COLUMNS
                                      " FROM form_submissions WHERE agent_id = $1 "
                                      "ORDER BY created_at DESC, id DESC LIMIT $2",
                                      agent_id, limit, read_form);
}

Result<std::vector<BookingRecord>> RecordRepo::latest_bookings(Connection& c,
                                                               std::string_view agent_id,
                                                               int64_t limit) {
  return latest<BookingRecord>(c,
                               "SELECT " BOOKING_COLUMNS
                               " FROM bookings WHERE agent_id = $1 "
                               "ORDER BY created_at DESC, id DESC LIMIT $2",
                               agent_id, limit, read_booking);
}

Result<std::vector<ReturnRequestRecord>> RecordRepo::latest_return_requests(
    Connection& c, std::string_view agent_id, int64_t limit) {
  return latest<ReturnRequestRecord>(c,
                                     "SELECT " RETURN_COLUMNS
                                     " FROM return_requests WHERE agent_id = $1 "
                                     "ORDER BY created_at DESC, id DESC LIMIT $2",
                                     agent_id, limit, read_return);
}

Result<bool> RecordRepo::mark_return_handled(Connection& c, std::string_view id, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("UPDATE return_requests SET status = 'handled', "
                                               "handled_at = COALESCE(handled_at, $2) "
                                               "WHERE id = $1",
                                               {id, now}));
  return n > 0;
}

Result<std::optional<std::string>> RecordRepo::conversation_account(
    Connection& c, std::string_view conversation_id) {
  std::optional<std::string> out;
  PARLEY_TRY(c.query("SELECT account_id FROM conversations WHERE id = $1", {conversation_id},
                     [&](const Row& r) { out = r.text(0); }));
  return out;
}

Result<void> RecordRepo::set_handoff_ticket(Connection& c, std::string_view conversation_id,
                                            const std::optional<std::string>& ticket) {
  PARLEY_TRY(c.execute("UPDATE conversations SET handoff_ticket = $2 WHERE id = $1",
                       {conversation_id, db_opt(ticket)}));
  return {};
}

}  // namespace parley
