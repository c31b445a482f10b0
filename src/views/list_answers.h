// The pages of an agent's conversations, leads and contacts, answered the same way by the public
// API and the console: the list parameters read from the request (views/pagination.h), the agent
// checked to be the account's (404 otherwise), and the page envelope written. The console's
// conversation list also takes `q`: only conversations with a message containing that text
// (case-insensitive), 1 to 200 characters.
#pragma once

#include <string_view>

#include "core/result.h"
#include "http/message.h"
#include "store/db.h"

namespace parley {

enum class ConversationSearch { kOff, kOn };

Result<Response> conversations_page(Database& db, std::string_view account_id,
                                    std::string_view agent_id, const Request& req,
                                    ConversationSearch search = ConversationSearch::kOff);
// The console's conversation list as an inbox (store/inbox_queries.h): `q`, and `filter`
// (unanswered, handed_off or rated_low; 400 naming it otherwise).
Result<Response> inbox_page(Database& db, std::string_view account_id, std::string_view agent_id,
                            const Request& req);
Result<Response> leads_page(Database& db, std::string_view account_id, std::string_view agent_id,
                            const Request& req);
// With the API's exact-match filters `email` and `external_id`.
Result<Response> contacts_page(Database& db, std::string_view account_id, std::string_view agent_id,
                               const Request& req);

}  // namespace parley
