#include "views/list_answers.h"

#include "domain/agents.h"
#include "domain/contacts.h"
#include "domain/leads.h"
#include "http/responses.h"
#include "store/conversation_queries.h"
#include "store/lead_queries.h"
#include "views/contact_json.h"
#include "views/conversation_json.h"
#include "views/lead_json.h"
#include "views/pagination.h"

namespace parley {

namespace {
constexpr size_t kMaxSearchChars = 200;

// The optional exact-match search parameters; an empty value is refused.
Result<ContactFilter> parse_contact_filter(const Request& req) {
  ContactFilter f;
  bool found = false;
  std::string email = req.query_param("email", &found);
  if (found) {
    if (email.empty()) return ApiError::invalid("'email' must not be empty.");
    f.email = lower_ascii(email);
  }
  std::string external_id = req.query_param("external_id", &found);
  if (found) {
    if (external_id.empty()) return ApiError::invalid("'external_id' must not be empty.");
    f.external_id = std::move(external_id);
  }
  return f;
}

Result<std::string> parse_search(const Request& req) {
  bool found = false;
  std::string q = req.query_param("q", &found);
  if (!found) return std::string();
  if (q.empty() || utf8_length(q) > kMaxSearchChars)
    return ApiError::invalid("'q' must be 1 to 200 characters.");
  return q;
}
}  // namespace

Result<Response> conversations_page(Database& db, std::string_view account_id,
                                    std::string_view agent_id, const Request& req,
                                    ConversationSearch search) {
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(req, kConversationList, agent_id));
  std::string containing;
  if (search == ConversationSearch::kOn) {
    PARLEY_ASSIGN_OR_RETURN(containing, parse_search(req));
  }
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, ConversationQueries::list(c, agent_id, q, containing));
  return Response::json(200, page_json<ConversationRecord>(
                                 page, kConversationList, agent_id, write_conversation_summary_json,
                                 [](const ConversationRecord& r) {
                                   return KeysetPosition{r.created_at, r.id};
                                 }));
}

Result<Response> inbox_page(Database& db, std::string_view account_id, std::string_view agent_id,
                            const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(req, kConversationList, agent_id));
  PARLEY_ASSIGN_OR_RETURN(std::string containing, parse_search(req));
  bool found = false;
  std::string name = req.query_param("filter", &found);
  InboxFilter filter = InboxFilter::kAll;
  if (name == "unanswered")
    filter = InboxFilter::kUnanswered;
  else if (name == "handed_off")
    filter = InboxFilter::kHandedOff;
  else if (name == "rated_low")
    filter = InboxFilter::kRatedLow;
  else if (found)
    return ApiError::invalid("'filter' must be unanswered, handed_off or rated_low.");
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, InboxQueries::list(c, agent_id, q, containing, filter));
  return Response::json(
      200, page_json<InboxRow>(
               page, kConversationList, agent_id, write_inbox_row_json, [](const InboxRow& r) {
                 return KeysetPosition{r.conversation.created_at, r.conversation.id};
               }));
}

Result<Response> leads_page(Database& db, std::string_view account_id, std::string_view agent_id,
                            const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(req, kLeadList, agent_id));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, LeadQueries::list(c, agent_id, q));
  FormLabels labels(parse_agent_settings(agent.settings));
  return Response::json(
      200, page_json<LeadRecord>(
               page, kLeadList, agent_id,
               [&](JsonWriter& w, const LeadRecord& l) { write_lead_json(w, l, labels); },
               [](const LeadRecord& l) {
                 return KeysetPosition{l.collected_at, l.id};
               }));
}

Result<Response> contacts_page(Database& db, std::string_view account_id, std::string_view agent_id,
                               const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(req, kContactList, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto filter, parse_contact_filter(req));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, ContactRepo::list(c, agent_id, filter, q));
  return Response::json(200,
                        page_json<ContactRecord>(page, kContactList, agent_id, write_contact_json,
                                                 [](const ContactRecord& r) {
                                                   return KeysetPosition{r.created_at, r.id};
                                                 }));
}

}  // namespace parley
