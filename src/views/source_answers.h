// An agent's knowledge sources as the public API and the console answer them: the listing (with
// training progress and characters used), adding a text snippet or a Q&A pair (the only types
// added over HTTP; the others come from the operator's tools), and deleting one. The agent is
// checked to be the account's (404 otherwise); the trainer hears of each change.
#pragma once

#include <string_view>

#include "core/result.h"
#include "http/message.h"
#include "knowledge/source_listener.h"
#include "store/services.h"

namespace parley {

Result<Response> sources_listing(Database& db, std::string_view account_id, std::string_view agent_id);
// 201 when created, 200 when an existing Q&A pair was updated or left as it was.
Result<Response> add_source_from(Services s, SourceListener* listener, std::string_view account_id,
                                 std::string_view agent_id, const Request& req);
Result<Response> delete_source_answer(Services s, SourceListener* listener, std::string_view account_id,
                                      std::string_view agent_id, std::string_view source_id);

}  // namespace parley
