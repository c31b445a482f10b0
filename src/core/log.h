// Structured logs: one JSON object per line on stderr. Nothing secret is ever passed here: no API
// keys, passwords, tokens or webhook secrets. Thread-safe.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <variant>

namespace parley {

using LogValue = std::variant<std::string_view, int64_t, double, bool>;
using LogField = std::pair<std::string_view, LogValue>;

void init_logging();
void log_info(std::string_view msg, std::initializer_list<LogField> fields = {});
void log_warn(std::string_view msg, std::initializer_list<LogField> fields = {});
void log_error(std::string_view msg, std::initializer_list<LogField> fields = {});

}  // namespace parley
