// Records that are events but no other resource's: form submissions, bookings and return
// requests, plus the helpdesk ticket of a hand-off. Written by the console and the admin CLI (on
// behalf of the widget and the team) together with their outbox row; read by the events API and
// the delivery worker. Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct FormSubmissionRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::string form_id;
  std::optional<std::string> form_name;
  std::string fields = "[]";  // JSON array of {id, label, value}
  std::optional<std::string> conversation_id;
  int64_t created_at = 0;
};

struct BookingRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::string provider;
  std::optional<std::string> event_title;
  int64_t start_at = 0;
  int64_t length_minutes = 30;
  std::string time_zone = "UTC";
  std::optional<std::string> name;
  std::optional<std::string> email;
  std::string provider_status = "accepted";  // "pending" | "accepted"
  std::optional<std::string> conversation_id;
  int64_t created_at = 0;
};

struct ReturnRequestRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::optional<std::string> order_id;
  std::optional<std::string> email;
  std::optional<std::string> name;
  std::optional<std::string> reason;
  std::string status = "requested";  // "requested" | "handled"
  std::optional<int64_t> handled_at;
  std::optional<std::string> conversation_id;
  int64_t created_at = 0;
};

class RecordRepo {
 public:
  static Result<void> insert(Connection& c, const FormSubmissionRecord& r);
  static Result<void> insert(Connection& c, const BookingRecord& r);
  static Result<void> insert(Connection& c, const ReturnRequestRecord& r);

  // By id within the agent (the worker and the events API both know the agent).
  static Result<std::optional<FormSubmissionRecord>> find_form_submission(Connection& c,
                                                                          std::string_view agent_id,
                                                                          std::string_view id);
  static Result<std::optional<BookingRecord>> find_booking(Connection& c, std::string_view agent_id,
                                                           std::string_view id);
  static Result<std::optional<ReturnRequestRecord>> find_return_request(Connection& c,
                                                                        std::string_view agent_id,
                                                                        std::string_view id);

  // The agent's latest records, newest first.
  static Result<std::vector<FormSubmissionRecord>> latest_form_submissions(
      Connection& c, std::string_view agent_id, int64_t limit);
  static Result<std::vector<BookingRecord>> latest_bookings(Connection& c,
                                                            std::string_view agent_id,
                                                            int64_t limit);
  static Result<std::vector<ReturnRequestRecord>> latest_return_requests(Connection& c,
                                                                         std::string_view agent_id,
                                                                         int64_t limit);

  // Marks a return request handled; false when there is no such request.
  static Result<bool> mark_return_handled(Connection& c, std::string_view id, int64_t now);
  // The account a conversation belongs to, when it exists.
  static Result<std::optional<std::string>> conversation_account(Connection& c,
                                                                 std::string_view conversation_id);
  // Stores the helpdesk ticket a hand-off opened (null clears it).
  static Result<void> set_handoff_ticket(Connection& c, std::string_view conversation_id,
                                         const std::optional<std::string>& ticket);
};

}  // namespace parley
