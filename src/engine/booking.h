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

#include "engine/intent_keywords.h"
#include "engine/reply_engine.h"
#include "text/analyzed_text.h"

namespace parley {

// The reply's booking offer, or nothing when the agent has no usable booking setting: provider,
// event title and length, the caller's time zone and the days with free slots.
std::optional<BookingBlock> booking_offer(const AgentSettings& settings, std::string_view time_zone,
                                          int64_t now_ms);

// True when the agent has a booking setting and the message calls for it (one of its
// `keywords`, by default book, booking, appointment, meeting, schedule, demo, call).
// `message` is the turn's message analysed in English, `keywords` the agent's compiled ones.
bool asks_for_booking(const IntentKeywords& keywords, const AnalyzedText& message);

}  // namespace parley
