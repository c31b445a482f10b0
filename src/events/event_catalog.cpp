#include "events/event_catalog.h"

#include <array>

namespace parley {

namespace {
struct Info {
  EventKind kind;
  std::string_view name;
  Scope scope;
  bool subscribable;
};

constexpr std::array kEvents = {
    Info{EventKind::kLeadCreated, "lead.created", Scope::kLeadsRead, true},
    Info{EventKind::kHandoffRequested, "handoff.requested", Scope::kConversationsRead, true},
    Info{EventKind::kFormSubmitted, "form.submitted", Scope::kLeadsRead, true},
    Info{EventKind::kBookingCreated, "booking.created", Scope::kLeadsRead, true},
    Info{EventKind::kLiveChatRequested, "live_chat.requested", Scope::kConversationsRead, true},
    Info{EventKind::kReturnRequested, "return.requested", Scope::kLeadsRead, true},
    Info{EventKind::kConversationCreated, "conversation.created", Scope::kConversationsRead, false},
};

const Info& info(EventKind kind) {
  for (const auto& i : kEvents)
    if (i.kind == kind) return i;
  return kEvents[0];
}

std::string join(bool subscribable_only) {
  std::string out;
  for (const auto& i : kEvents) {
    if (subscribable_only && !i.subscribable) continue;
    if (!out.empty()) out += ", ";
    out += i.name;
  }
  return out;
}
}  // namespace

std::optional<EventKind> parse_event_kind(std::string_view name) {
  for (const auto& i : kEvents)
    if (i.name == name) return i.kind;
  return std::nullopt;
}

std::string_view event_name(EventKind kind) { return info(kind).name; }
Scope event_data_scope(EventKind kind) { return info(kind).scope; }
bool is_subscribable(EventKind kind) { return info(kind).subscribable; }
std::string subscribable_event_list() { return join(true); }
std::string all_event_list() { return join(false); }

}  // namespace parley
