#include "widget/widget_limits.h"

namespace parley {

namespace {
constexpr int64_t kMinuteMs = 60 * 1000;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kDayMs = 24 * kHourMs;

ClientAddress client_address_or_peer(const ClientAddressOptions& options) {
  auto made = ClientAddress::make(options);
  return made.ok() ? std::move(*made) : ClientAddress{};
}

std::string pair_key(std::string_view a, std::string_view b) {
  std::string key(a);
  key.push_back('\n');
  key.append(b);
  return key;
}

Result<void> limited(const WindowDecision& d, std::string message) {
  if (d.allowed) return {};
  message.append(" Retry in ").append(std::to_string(d.retry_after_s)).append(" seconds.");
  return ApiError{ErrorCode::kRateLimited, std::move(message), d.retry_after_s};
}
}  // namespace

WidgetLimits::WidgetLimits(const Clock& clock, const WidgetOptions& options, Database* shared)
    : options_(options),
      client_(client_address_or_peer(options.client_address)),
      requests_(clock, kMinuteMs, shared, "widget.requests"),
      messages_(clock, kMinuteMs, shared, "widget.messages"),
      visitor_messages_(clock, kDayMs, shared, "widget.visitor_messages"),
      records_(clock, kHourMs, shared, "widget.records"),
      contacts_address_(clock, kHourMs, shared, "widget.contacts_address"),
      contacts_agent_(clock, kHourMs, shared, "widget.contacts_agent") {}

Result<void> WidgetLimits::check_request(std::string_view address) {
  const int64_t n = options_.requests_per_minute_per_address;
  return limited(requests_.hit(address, n),
                 "This address made more than " + std::to_string(n) +
                     " widget requests this minute.");
}

Result<void> WidgetLimits::check_message(std::string_view address, std::string_view agent_id,
                                         std::optional<int64_t> messages_per_visitor) {
  const int64_t n = options_.messages_per_minute_per_address;
  PARLEY_TRY(limited(messages_.hit(address, n),
                     "This address sent more than " + std::to_string(n) +
                         " widget messages this minute."));
  if (!messages_per_visitor) return {};
  const int64_t allowance = *messages_per_visitor * options_.visitors_per_address;
  WindowDecision d = visitor_messages_.hit(pair_key(agent_id, address), allowance);
  if (d.allowed) return {};
  return ApiError{ErrorCode::kVisitorLimitReached,
                  "Visitors at this address have sent the " + std::to_string(allowance) +
                      " messages the agent allows one address today (" +
                      std::to_string(*messages_per_visitor) + " per visitor, " +
                      std::to_string(options_.visitors_per_address) +
                      " visitors per address).",
                  d.retry_after_s};
}

Result<void> WidgetLimits::check_record(std::string_view conversation_id) {
  const int64_t n = options_.records_per_conversation_per_hour;
  return limited(records_.hit(conversation_id, n),
                 "This conversation already has " + std::to_string(n) +
                     " forms, bookings, return requests or contact details this hour.");
}

Result<void> WidgetLimits::check_contact(std::string_view address, std::string_view agent_id) {
  const int64_t per_address = options_.contacts_per_hour_per_address;
  PARLEY_TRY(limited(contacts_address_.hit(address, per_address),
                     "This address gave contact details more than " +
                         std::to_string(per_address) +
                         " times this hour."));
  const int64_t per_agent = options_.contacts_per_hour_per_agent;
  return limited(contacts_agent_.hit(agent_id, per_agent),
                 "The agent received contact details from visitors more than " +
                     std::to_string(per_agent) +
                     " times this hour.");
}

Result<void> WidgetLimits::check_record_size(std::string_view field, size_t json_bytes) const {
  if (json_bytes <= static_cast<size_t>(options_.record_max_bytes)) return {};
  return ApiError::invalid("'" + std::string(field) + "' must be at most " +
                           std::to_string(options_.record_max_bytes) + " bytes of JSON.");
}

}  // namespace parley
