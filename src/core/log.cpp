#include "core/log.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "core/clock.h"
#include "core/json.h"
#include "core/text_append.h"
#include "core/time_format.h"

namespace parley {

namespace {
std::atomic<bool> g_buffered{false};

// Formats the line by hand into a per-thread buffer: this runs once per request, and a general
// JSON writer costs several times more.
void emit(spdlog::level::level_enum level, std::string_view level_name, std::string_view msg,
          std::initializer_list<LogField> fields) {
  static const SystemClock clock;
  thread_local std::string line;
  thread_local int64_t time_ms = -1;
  thread_local char time[24];
  line.clear();
  int64_t now = clock.now_ms();
  if (now != time_ms) {
    format_timestamp_to(now, time);
    time_ms = now;
  }
  line.append("{\"time\":\"").append(time, sizeof time).append("\",\"level\":");
  append_json_string(line, level_name);
  line.append(",\"msg\":");
  append_json_string(line, msg);
  for (const auto& [k, v] : fields) {
    line.append(",\"").append(k).append("\":");  // field names are plain identifiers
    std::visit([&](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string_view>) append_json_string(line, x);
      else if constexpr (std::is_same_v<T, bool>) line.append(x ? "true" : "false");
      else if constexpr (std::is_same_v<T, double>) {
        if (std::isfinite(x)) append_double(line, x); else line.append("null");
      }
      else append_integer(line, x);
    }, v);
  }
  line.push_back('}');
  if (level == spdlog::level::info && g_buffered.load(std::memory_order_relaxed)) {
    // Buffered info lines go straight into stderr's buffer: the FILE lock orders them with the
    // lines spdlog writes, and the flusher or the next warning writes them out.
    if (!spdlog::default_logger_raw()->should_log(level)) return;
    line.push_back('\n');
    std::fwrite(line.data(), 1, line.size(), stderr);
    return;
  }
  spdlog::default_logger_raw()->log(level, spdlog::string_view_t(line.data(), line.size()));
}

// Writes each line to stderr through stdio, flushing only when asked: spdlog's own stderr sink
// flushes after every line, which buffer_logging needs to avoid.
class StderrSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    line_.assign(msg.payload.data(), msg.payload.size());
    line_.push_back('\n');
    std::fwrite(line_.data(), 1, line_.size(), stderr);
  }
  void flush_() override { std::fflush(stderr); }

 private:
  std::string line_;
};
}  // namespace

void init_logging() {
  auto logger = std::make_shared<spdlog::logger>("parley", std::make_shared<StderrSink>());
  logger->set_pattern("%v");
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

namespace {
// Flushes the default logger every `interval_ms` on a thread of its own until destroyed.
class PeriodicFlush {
 public:
  explicit PeriodicFlush(int interval_ms) : thread_([this, interval_ms] { run(interval_ms); }) {}
  ~PeriodicFlush() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
    spdlog::default_logger()->flush();
  }

 private:
  void run(int interval_ms) {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(interval_ms), [&] { return stopping_; })) {
      lock.unlock();
      spdlog::default_logger()->flush();
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is made
};
}  // namespace

void buffer_logging(int interval_ms) {
  if (interval_ms <= 0) return;
  static char buffer[1 << 16];
  std::fflush(stderr);
  std::setvbuf(stderr, buffer, _IOFBF, sizeof buffer);
  spdlog::default_logger()->flush_on(spdlog::level::warn);
  g_buffered = true;
  // Made after spdlog's registry, so destroyed before it when the process exits: the thread is
  // stopped and joined first. (Detached, it could flush through a logger the exit had already
  // destroyed: a crash at exit, seen under the sanitizers.)
  static PeriodicFlush flush(interval_ms);
}

void flush_logs() { spdlog::default_logger()->flush(); }

void log_info(std::string_view msg, std::initializer_list<LogField> fields) {
  emit(spdlog::level::info, "info", msg, fields);
}
void log_warn(std::string_view msg, std::initializer_list<LogField> fields) {
  emit(spdlog::level::warn, "warn", msg, fields);
}
void log_error(std::string_view msg, std::initializer_list<LogField> fields) {
  emit(spdlog::level::err, "error", msg, fields);
}

}  // namespace parley
