// Timestamps on the wire: ISO 8601 with milliseconds in UTC ("2026-11-22T10:56:12.123Z").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

// Formats milliseconds since the Unix epoch.
std::string format_timestamp(int64_t ms);
// Writes the 24 characters of format_timestamp into `out` (no allocation).
void format_timestamp_to(int64_t ms, char out[24]);

// Parses an ISO 8601 date-time: "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.fff]]" followed by "Z" or
// "+HH:MM"/"-HH:MM" (a bare date means midnight UTC). Returns nothing when malformed.
std::optional<int64_t> parse_timestamp(std::string_view text);

// Days since 1970-01-01 for a proleptic Gregorian date, and back.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d);

}  // namespace parley
