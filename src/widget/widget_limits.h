// The limits of the widget's anonymous endpoints, where no key identifies the caller: requests
// per client address on every endpoint; messages (engine runs) per address; the agent's
// messages-per-visitor allowance held to the address as well as to the client-chosen visitorId;
// records (forms, bookings, return requests, contact details) per conversation; contact
// details per address and per agent, so that made-up emails cannot fill the plan's contacts.
// Past a limit: 429 rate_limited (visitor_message_limit_reached for the visitor allowance) with
// Retry-After and a message naming the limit. Counted in memory (widget/window_counter.h), or in
// the database when nodes share it, so that each limit holds across every node. Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/result.h"
#include "http/client_address.h"
#include "http/message.h"
#include "widget/widget_options.h"
#include "widget/window_counter.h"

namespace parley {

class WidgetLimits {
 public:
  // `shared`: the database to count in when nodes share it; null counts in memory.
  WidgetLimits(const Clock& clock, const WidgetOptions& options, Database* shared = nullptr);

  // The client's address as every per-address limit counts it (http/client_address.h): a
  // trusted proxy's header's last entry, else the peer's address; IPv6 grouped by prefix.
  std::string client_address(const Request& req) const { return client_.of(req); }

  // Every widget request, OPTIONS included.
  Result<void> check_request(std::string_view address);
  // A chat message to the agent; `messages_per_visitor` is the agent's allowance per visitor in
  // 24 hours (none: no allowance), which the address may use `visitors_per_address` times over.
  Result<void> check_message(std::string_view address, std::string_view agent_id,
                             std::optional<int64_t> messages_per_visitor);
  // A record on the conversation (form, booking, return request, contact details).
  Result<void> check_record(std::string_view conversation_id);
  // Contact details given to the agent.
  Result<void> check_contact(std::string_view address, std::string_view agent_id);
  // 400 invalid_request naming `field` when its JSON is over the size cap.
  Result<void> check_record_size(std::string_view field, size_t json_bytes) const;

 private:
  const WidgetOptions options_;
  ClientAddress client_;             // checked by check_node_options; defaults when invalid
  WindowCounter requests_;           // per address, per minute
  WindowCounter messages_;           // per address, per minute
  WindowCounter visitor_messages_;   // per agent and address, per UTC day
  WindowCounter records_;            // per conversation, per hour
  WindowCounter contacts_address_;   // per address, per hour
  WindowCounter contacts_agent_;     // per agent, per hour
};

}  // namespace parley
