#include "core/time_format.h"

#include <cctype>

namespace parley {

// Howard Hinnant's civil-date algorithms (public domain).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

void format_timestamp_to(int64_t ms, char out[24]) {
  int64_t days = ms >= 0 ? ms / 86400000 : (ms - 86399999) / 86400000;
  int64_t rem = ms - days * 86400000;
  int64_t y;
  unsigned mo, d;
  civil_from_days(days, y, mo, d);
  auto put = [&](int pos, int64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) {
      out[pos + i] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
  };
  put(0, y, 4);
  out[4] = '-';
  put(5, mo, 2);
  out[7] = '-';
  put(8, d, 2);
  out[10] = 'T';
  put(11, rem / 3600000, 2);
  out[13] = ':';
  put(14, rem / 60000 % 60, 2);
  out[16] = ':';
  put(17, rem / 1000 % 60, 2);
  out[19] = '.';
  put(20, rem % 1000, 3);
  out[23] = 'Z';
}

std::string format_timestamp(int64_t ms) {
  char buf[24];
  format_timestamp_to(ms, buf);
  return std::string(buf, 24);
}

namespace {
bool digits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}
}  // namespace

std::optional<int64_t> parse_timestamp(std::string_view s) {
  int y, mo, d, h = 0, mi = 0, sec = 0, milli = 0;
  if (!digits(s, 0, 4, y) || s.size() < 10 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1) return std::nullopt;
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[mo - 1] || (mo == 2 && d == 29 && !leap)) return std::nullopt;
  size_t pos = 10;
  int64_t offset_min = 0;
  if (pos < s.size()) {
    if (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' ') return std::nullopt;
    ++pos;
    if (!digits(s, pos, 2, h) || pos + 2 >= s.size() || s[pos + 2] != ':' || !digits(s, pos + 3, 2, mi))
      return std::nullopt;
    pos += 5;
    if (pos < s.size() && s[pos] == ':') {
      if (!digits(s, pos + 1, 2, sec)) return std::nullopt;
      pos += 3;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        size_t start = pos;
        int scale = 100;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
          milli += (s[pos] - '0') * scale;
          scale /= 10;
          ++pos;
        }
        if (pos == start || pos - start > 9) return std::nullopt;
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return std::nullopt;
    if (pos >= s.size()) return std::nullopt;  // a time needs a zone
    if (s[pos] == 'Z' || s[pos] == 'z') {
      ++pos;
    } else if (s[pos] == '+' || s[pos] == '-') {
      int oh, om;
      bool colon = pos + 3 < s.size() && s[pos + 3] == ':';
      if (!digits(s, pos + 1, 2, oh) || !digits(s, pos + (colon ? 4 : 3), 2, om) || oh > 23 || om > 59)
        return std::nullopt;
      offset_min = (oh * 60 + om) * (s[pos] == '+' ? 1 : -1);
      pos += colon ? 6 : 5;
    } else {
      return std::nullopt;
    }
    if (pos != s.size()) return std::nullopt;
  }
  int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return ((days * 24 + h) * 60 + mi - offset_min) * 60000 + static_cast<int64_t>(sec) * 1000 + milli;
}

}  // namespace parley
