#include "engine/booking.h"

#include <unicode/calendar.h>
#include <unicode/gregocal.h>
#include <unicode/timezone.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <memory>
#include <vector>

#include "text/normalizer.h"

namespace parley {

namespace {
constexpr int64_t kDayMs = 24LL * 60 * 60 * 1000;

std::unique_ptr<icu::Calendar> calendar_in(std::string_view zone) {
  UErrorCode status = U_ZERO_ERROR;
  icu::TimeZone* tz = icu::TimeZone::createTimeZone(icu::UnicodeString::fromUTF8(
      icu::StringPiece(zone.data(), static_cast<int32_t>(zone.size()))));
  auto cal = std::make_unique<icu::GregorianCalendar>(tz, status);  // adopts tz
  if (U_FAILURE(status)) return nullptr;
  return cal;
}

std::string two(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string text_or(const std::optional<std::string>& s, std::string fallback) {
  return s && !s->empty() ? *s : fallback;
}
}  // namespace

std::optional<BookingBlock> booking_offer(const AgentSettings& settings,
                                          std::string_view time_zone, int64_t now_ms) {
  if (!settings.booking) return std::nullopt;
  const BookingSetting& b = *settings.booking;
  int64_t length = b.event_length.value_or(30);
  if (length < 5 || length > 24 * 60) return std::nullopt;
  int64_t days_ahead = std::clamp<int64_t>(b.days_ahead.value_or(7), 1, 31);
  std::string agent_zone = text_or(b.time_zone, "UTC");
  auto agent_cal = calendar_in(agent_zone);
  auto caller_cal = calendar_in(time_zone.empty() ? "UTC" : time_zone);
  if (!agent_cal || !caller_cal) return std::nullopt;

  // Slot starts (UTC ms), from the agent's weekly windows over the coming days.
  std::vector<int64_t> slots;
  {
    UErrorCode status = U_ZERO_ERROR;
    agent_cal->setTime(static_cast<UDate>(now_ms), status);
    int year = agent_cal->get(UCAL_YEAR, status), month = agent_cal->get(UCAL_MONTH, status),
        day = agent_cal->get(UCAL_DATE, status);
    for (int64_t d = 0; d <= days_ahead && U_SUCCESS(status); ++d) {
      agent_cal->clear();
      agent_cal->set(year, month, day + static_cast<int32_t>(d), 0, 0, 0);
      int weekday = agent_cal->get(UCAL_DAY_OF_WEEK, status) - 1;  // 0 = Sunday
      if (U_FAILURE(status) || weekday < 0 || weekday > 6) break;
      for (const TimeWindow& w : b.availability[weekday]) {
        for (int m = w.from; m + length <= w.to; m += static_cast<int>(length)) {
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
  BookingBlock out{text_or(b.provider, "calendar"), text_or(b.event_title, "Meeting"), length,
                   time_zone.empty() ? "UTC" : std::string(time_zone), {}};
  for (auto& [date, at] : days) out.days.push_back({date, std::move(at)});
  return out;
}

bool asks_for_booking(const IntentKeywords& keywords, const AnalyzedText& message) {
  // A keyword is a phrase of lemmas: "Books?" asks for "book", "BOOKINGS" for "booking".
  for (const auto& phrase : keywords.booking_phrases())
    if (contains_phrase(message.lemmas(), phrase)) return true;
  return false;
}

}  // namespace parley
