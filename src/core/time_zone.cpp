#include "core/time_zone.h"

#include <unicode/timezone.h>
#include <unicode/unistr.h>

#include <cstdio>
#include <map>
#include <memory>

#include "core/time_format.h"

namespace parley {

namespace {
constexpr int64_t kDayMs = 86'400'000;

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// The zone of `name`, or nullptr for UTC and unknown names; kept per thread (ICU's zones are
// not safe to share while they compute).
const icu::TimeZone* zone_of(std::string_view name) {
  thread_local std::map<std::string, std::unique_ptr<icu::TimeZone>, std::less<>> zones;
  auto it = zones.find(name);
  if (it == zones.end()) {
    std::unique_ptr<icu::TimeZone> tz;
    if (is_time_zone(name) && name != "UTC") {
      tz.reset(icu::TimeZone::createTimeZone(icu::UnicodeString::fromUTF8(
          icu::StringPiece(name.data(), static_cast<int32_t>(name.size())))));
    }
    if (zones.size() > 1000) zones.clear();  // a bound; accounts use a few zones
    it = zones.emplace(std::string(name), std::move(tz)).first;
  }
  return it->second.get();
}
}  // namespace

bool is_time_zone(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString canonical;
  UBool system = false;
  icu::TimeZone::getCanonicalID(icu::UnicodeString::fromUTF8(icu::StringPiece(
                                    name.data(), static_cast<int32_t>(name.size()))),
                                canonical, system, status);
  return U_SUCCESS(status) && system;
}

int64_t local_day(int64_t ms, std::string_view zone) {
  int64_t offset = 0;
  if (const icu::TimeZone* tz = zone_of(zone)) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t raw = 0, dst = 0;
    tz->getOffset(static_cast<UDate>(ms), false, raw, dst, status);
    if (U_SUCCESS(status)) offset = int64_t{raw} + dst;
  }
  return floor_div(ms + offset, kDayMs);
}

std::string format_day(int64_t day) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(day, y, m, d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

bool parse_day(std::string_view text, int64_t& day) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  int v[3] = {0, 0, 0};
  const size_t starts[3] = {0, 5, 8}, lens[3] = {4, 2, 2};
  for (int i = 0; i < 3; ++i) {
    for (size_t k = 0; k < lens[i]; ++k) {
      char ch = text[starts[i] + k];
      if (ch < '0' || ch > '9') return false;
      v[i] = v[i] * 10 + (ch - '0');
    }
  }
  if (v[1] < 1 || v[1] > 12 || v[2] < 1) return false;
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (v[0] % 4 == 0 && v[0] % 100 != 0) || v[0] % 400 == 0;
  int max = v[1] == 2 && !leap ? 28 : kDays[v[1] - 1];
  if (v[2] > max) return false;
  day = days_from_civil(v[0], static_cast<unsigned>(v[1]), static_cast<unsigned>(v[2]));
  return true;
}

}  // namespace parley
