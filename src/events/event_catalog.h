// The seven event kinds (spec section 6): their names, the data scope listing each needs, and
// which can be subscribed to. Constant data; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/scopes.h"

namespace parley {

enum class EventKind {
  kLeadCreated,
  kHandoffRequested,
  kFormSubmitted,
  kBookingCreated,
  kLiveChatRequested,
  kReturnRequested,
  kConversationCreated,
};

std::optional<EventKind> parse_event_kind(std::string_view name);
std::string_view event_name(EventKind kind);
// leads:read or conversations:read (spec section 4, "List events and samples").
Scope event_data_scope(EventKind kind);
// Every kind but conversation.created.
bool is_subscribable(EventKind kind);
// "lead.created, handoff.requested, ..." for error messages.
std::string subscribable_event_list();
std::string all_event_list();

}  // namespace parley
