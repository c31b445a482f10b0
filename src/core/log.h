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
// A field: its name (a plain identifier, written as it is) and its value.
using LogField = std::pair<std::string_view, LogValue>;

void init_logging();
// For the server: log lines are buffered and written out every `interval_ms` (and at once for
// warnings and errors), so the per-request log line costs no system call of its own. Lines of
// the last interval can be lost if the process is killed hard.
void buffer_logging(int interval_ms);
// Writes out buffered lines now (after the `listening` line, at shutdown).
void flush_logs();
void log_info(std::string_view msg, std::initializer_list<LogField> fields = {});
void log_warn(std::string_view msg, std::initializer_list<LogField> fields = {});
void log_error(std::string_view msg, std::initializer_list<LogField> fields = {});

}  // namespace parley
