// The booking offer: free meeting slots computed from the agent's weekly availability and shown
// in the caller's time zone (the API cannot book). Setting `booking`:
//   {"provider": "calendar", "eventTitle": "Intro call", "eventLength": 30,
//    "timeZone": "Europe/Paris", "daysAhead": 7, "keywords": ["book", "meeting"],
//    "availability": {"mon": [["09:00", "12:00"], ["14:00", "17:00"]], "tue": [...], ...}}
// Availability is in the agent's `timeZone` (UTC when absent); slots start every `eventLength`
// minutes inside each window, from now on, for `daysAhead` days. In the reply each day is a date
// of the caller's `timeZone` and its slots are UTC times. Pure functions (ICU time zones);
// safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

// The reply's `booking` object as JSON, or nothing when the agent has no usable booking setting:
// {"provider", "eventTitle", "eventLength", "timeZone", "days": [{"date", "slots": [...]}]}.
std::optional<std::string> booking_offer(std::string_view settings_json, std::string_view time_zone,
                                         int64_t now_ms);

// True when the agent has a booking setting and the message calls for it (one of its
// `keywords`, by default book, booking, appointment, meeting, schedule, demo, call).
bool asks_for_booking(std::string_view settings_json, std::string_view message);

}  // namespace parley
