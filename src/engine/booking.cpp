#include "engine/booking.h"

#include <rapidjson/document.h>
#include <unicode/calendar.h>
#include <unicode/gregocal.h>
#include <unicode/timezone.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <memory>
#include <vector>

#include "core/json.h"
#include "text/normalizer.h"

namespace parley {

namespace {
constexpr int64_t kDayMs = 24LL * 60 * 60 * 1000;
constexpr std::array<const char*, 7> kDayNames = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
constexpr std::array<const char*, 7> kDefaultKeywords = {
    "book", "booking", "appointment", "meeting", "schedule", "demo", "call"};

std::unique_ptr<icu::Calendar> calendar_in(std::string_view zone) {
  UErrorCode status = U_ZERO_ERROR;
  icu::TimeZone* tz = icu::TimeZone::createTimeZone(icu::UnicodeString::fromUTF8(
      icu::StringPiece(zone.data(), static_cast<int32_t>(zone.size()))));
  auto cal = std::make_unique<icu::GregorianCalendar>(tz, status);  // adopts tz
  if (U_FAILURE(status)) return nullptr;
  return cal;
}

// "HH:MM" as minutes after midnight, or -1.
int minutes_of(const rapidjson::Value& v) {
  if (!v.IsString() || v.GetStringLength() != 5) return -1;
  const char* s = v.GetString();
  if (!std::isdigit(s[0]) || !std::isdigit(s[1]) || s[2] != ':' || !std::isdigit(s[3]) ||
      !std::isdigit(s[4]))
    return -1;
  int h = (s[0] - '0') * 10 + (s[1] - '0'), m = (s[3] - '0') * 10 + (s[4] - '0');
  if (h > 24 || m > 59 || h * 60 + m > 24 * 60) return -1;
  return h * 60 + m;
}

std::string text_or(const rapidjson::Value& o, const char* name, std::string fallback) {
  auto it = o.FindMember(name);
  if (it == o.MemberEnd() || !it->value.IsString() || it->value.GetStringLength() == 0)
    return fallback;
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::string two(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

const rapidjson::Value* booking_setting(const rapidjson::Document& doc) {
  if (doc.HasParseError() || !doc.IsObject()) return nullptr;
  auto it = doc.FindMember("booking");
  if (it == doc.MemberEnd() || !it->value.IsObject()) return nullptr;
  return &it->value;
}
}  // namespace

std::optional<std::string> booking_offer(std::string_view settings_json, std::string_view time_zone,
                                         int64_t now_ms) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  const rapidjson::Value* b = booking_setting(doc);
  if (b == nullptr) return std::nullopt;
  int64_t length = 30;
  if (auto it = b->FindMember("eventLength"); it != b->MemberEnd() && it->value.IsInt64())
    length = it->value.GetInt64();
  if (length < 5 || length > 24 * 60) return std::nullopt;
  int64_t days_ahead = 7;
  if (auto it = b->FindMember("daysAhead"); it != b->MemberEnd() && it->value.IsInt64())
    days_ahead = it->value.GetInt64();
  days_ahead = std::clamp<int64_t>(days_ahead, 1, 31);
  std::string agent_zone = text_or(*b, "timeZone", "UTC");
  auto agent_cal = calendar_in(agent_zone);
  auto caller_cal = calendar_in(time_zone.empty() ? "UTC" : time_zone);
  if (!agent_cal || !caller_cal) return std::nullopt;

  // Slot starts (UTC ms), from the agent's weekly windows over the coming days.
  std::vector<int64_t> slots;
  auto availability = b->FindMember("availability");
  if (availability != b->MemberEnd() && availability->value.IsObject()) {
    UErrorCode status = U_ZERO_ERROR;
    agent_cal->setTime(static_cast<UDate>(now_ms), status);
    int year = agent_cal->get(UCAL_YEAR, status), month = agent_cal->get(UCAL_MONTH, status),
        day = agent_cal->get(UCAL_DATE, status);
    for (int64_t d = 0; d <= days_ahead && U_SUCCESS(status); ++d) {
      agent_cal->clear();
      agent_cal->set(year, month, day + static_cast<int32_t>(d), 0, 0, 0);
      int weekday = agent_cal->get(UCAL_DAY_OF_WEEK, status) - 1;  // 0 = Sunday
      auto windows = availability->value.FindMember(kDayNames[weekday]);
      if (windows == availability->value.MemberEnd() || !windows->value.IsArray()) continue;
      for (const auto& w : windows->value.GetArray()) {
        if (!w.IsArray() || w.Size() != 2) continue;
        int from = minutes_of(w[0]), to = minutes_of(w[1]);
        if (from < 0 || to <= from) continue;
        for (int m = from; m + length <= to; m += static_cast<int>(length)) {
          agent_cal->clear();
          agent_cal->set(year, month, day + static_cast<int32_t>(d), m / 60, m % 60, 0);
          int64_t at = static_cast<int64_t>(agent_cal->getTime(status));
          if (U_SUCCESS(status) && at > now_ms && at < now_ms + (days_ahead + 1) * kDayMs)
            slots.push_back(at);
        }
      }
    }
  }
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());

  // Grouped by the date in the caller's zone.
  std::map<std::string, std::vector<int64_t>> days;
  for (int64_t at : slots) {
    UErrorCode status = U_ZERO_ERROR;
    caller_cal->setTime(static_cast<UDate>(at), status);
    std::string date = std::to_string(caller_cal->get(UCAL_YEAR, status)) + "-" +
                       two(caller_cal->get(UCAL_MONTH, status) + 1) + "-" +
                       two(caller_cal->get(UCAL_DATE, status));
    days[date].push_back(at);
  }
  JsonWriter w;
  w.begin_object();
  w.key("provider").string(text_or(*b, "provider", "calendar"));
  w.key("eventTitle").string(text_or(*b, "eventTitle", "Meeting"));
  w.key("eventLength").integer(length);
  w.key("timeZone").string(time_zone.empty() ? "UTC" : time_zone);
  w.key("days").begin_array();
  for (const auto& [date, at] : days) {
    w.begin_object().key("date").string(date).key("slots").begin_array();
    for (int64_t t : at) w.timestamp(t);
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return w.str();
}

bool asks_for_booking(std::string_view settings_json, std::string_view message) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  const rapidjson::Value* b = booking_setting(doc);
  if (b == nullptr) return false;
  // A keyword is a phrase of normalised words: "Books?" asks for "book", "BOOKINGS" for "booking".
  auto words = tokenize(message);
  auto has_word = [&](std::string_view keyword) {
    return contains_phrase(words, tokenize(keyword));
  };
  auto keywords = b->FindMember("keywords");
  if (keywords != b->MemberEnd() && keywords->value.IsArray() && !keywords->value.Empty()) {
    for (const auto& k : keywords->value.GetArray())
      if (k.IsString() && k.GetStringLength() > 0 && has_word({k.GetString(), k.GetStringLength()}))
        return true;
    return false;
  }
  for (const char* k : kDefaultKeywords)
    if (has_word(k)) return true;
  return false;
}

}  // namespace parley
