// IANA time zones (through ICU's copy of the tz database): whether a name is one, and the day an
// instant falls on in a zone. Thread-safe: each thread keeps its own zones.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace parley {

// True for a zone name of the tz database ("Europe/Paris", "UTC", "America/Argentina/Salta"),
// false for anything else, custom offsets ("GMT+2") included.
bool is_time_zone(std::string_view name);

// Days since 1970-01-01 of the local date at `ms` (milliseconds since the epoch) in `zone`; an
// unknown zone counts as UTC.
int64_t local_day(int64_t ms, std::string_view zone);

// "YYYY-MM-DD" of a day number, and back (false when not a real date in that form).
std::string format_day(int64_t day);
bool parse_day(std::string_view text, int64_t& day);

}  // namespace parley
