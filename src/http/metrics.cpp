#include "http/metrics.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/text_append.h"

namespace parley {

HttpMetrics::HttpMetrics(std::vector<std::string> routes) : routes_(std::move(routes)) {
  routes_.push_back("unmatched");
  series_ = std::make_unique<Series[]>(routes_.size());
}

void HttpMetrics::record(size_t route, int status, double seconds) {
  if (route >= routes_.size()) route = unmatched();
  Series& s = series_[route];
  if (status >= 100 && status <= 599) s.by_status[static_cast<size_t>(status - 100)].fetch_add(1, std::memory_order_relaxed);
  size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  s.buckets[b].fetch_add(1, std::memory_order_relaxed);
  s.sum_us.fetch_add(static_cast<uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

namespace {

// A label value: backslash, quote and line feed escaped (route patterns have none, but still).
std::string label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out.append("\\n");
      continue;
    }
    out.push_back(c);
  }
  return out;
}

// Fixed notation: Prometheus reads it, and bucket bounds read as written ("0.0005", not "5e-04").
void append_fixed(std::string& out, double v) { append_double(out, v, std::chars_format::fixed); }

void header(std::string& out, const char* name, const char* type, const char* help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void process_metrics(std::string& out) {
  long ticks = sysconf(_SC_CLK_TCK);
  long page = sysconf(_SC_PAGESIZE);
  std::ifstream stat("/proc/self/stat");
  std::string line;
  std::getline(stat, line);
  // Fields after the command name (which is in parentheses and may hold spaces).
  size_t close = line.rfind(')');
  std::istringstream rest(close == std::string::npos ? "" : line.substr(close + 2));
  std::vector<std::string> f;
  for (std::string x; rest >> x;) f.push_back(x);
  // f[0] is field 3 (state): utime is field 14, stime 15, starttime 22, rss 24.
  if (f.size() > 21 && ticks > 0) {
    double cpu = (std::stod(f[11]) + std::stod(f[12])) / static_cast<double>(ticks);
    header(out, "process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.");
    out.append("process_cpu_seconds_total ");
    append_fixed(out, cpu);
    out.push_back('\n');
    header(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    out.append("process_resident_memory_bytes ");
    append_integer(out, std::stoll(f[21]) * page);
    out.push_back('\n');
    std::ifstream up("/proc/stat");
    for (std::string l; std::getline(up, l);) {
      if (l.rfind("btime ", 0) == 0) {
        double start = std::stod(l.substr(6)) + std::stod(f[19]) / static_cast<double>(ticks);
        header(out, "process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch, in seconds.");
        out.append("process_start_time_seconds ");
        append_fixed(out, start);
        out.push_back('\n');
        break;
      }
    }
  }
  int fds = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (dirent* e = readdir(d)) fds += e->d_name[0] != '.';
    closedir(d);
    header(out, "process_open_fds", "gauge", "Open file descriptors.");
    out.append("process_open_fds ");
    append_integer(out, fds - 1);  // less the one reading the directory
    out.push_back('\n');
  }
}

}  // namespace

void HttpMetrics::write(std::string& out, int64_t in_flight, int64_t pool_waiting) const {
  header(out, "parley_http_requests_total", "counter", "HTTP requests answered, by route pattern and status.");
  for (size_t r = 0; r < routes_.size(); ++r) {
    std::string route = label(routes_[r]);
    for (size_t i = 0; i < series_[r].by_status.size(); ++i) {
      uint64_t n = series_[r].by_status[i].load(std::memory_order_relaxed);
      if (n == 0) continue;
      out.append("parley_http_requests_total{route=\"").append(route).append("\",status=\"");
      append_integer(out, static_cast<int64_t>(i + 100));
      out.append("\"} ");
      append_integer(out, static_cast<int64_t>(n));
      out.push_back('\n');
    }
  }
  header(out, "parley_http_request_duration_seconds", "histogram",
         "Time from a request's last byte read to its response's last byte written, by route pattern.");
  for (size_t r = 0; r < routes_.size(); ++r) {
    const Series& s = series_[r];
    uint64_t count = 0;
    for (const auto& b : s.buckets) count += b.load(std::memory_order_relaxed);
    if (count == 0) continue;
    std::string route = label(routes_[r]);
    uint64_t cumulative = 0;
    for (size_t b = 0; b <= kBuckets.size(); ++b) {
      cumulative += s.buckets[b].load(std::memory_order_relaxed);
      out.append("parley_http_request_duration_seconds_bucket{route=\"").append(route).append("\",le=\"");
      if (b < kBuckets.size()) append_fixed(out, kBuckets[b]); else out.append("+Inf");
      out.append("\"} ");
      append_integer(out, static_cast<int64_t>(cumulative));
      out.push_back('\n');
    }
    out.append("parley_http_request_duration_seconds_sum{route=\"").append(route).append("\"} ");
    append_fixed(out, static_cast<double>(s.sum_us.load(std::memory_order_relaxed)) / 1e6);
    out.push_back('\n');
    out.append("parley_http_request_duration_seconds_count{route=\"").append(route).append("\"} ");
    append_integer(out, static_cast<int64_t>(cumulative));
    out.push_back('\n');
  }
  header(out, "parley_http_connections", "gauge", "Open client connections.");
  out.append("parley_http_connections ");
  append_integer(out, connections_.load(std::memory_order_relaxed));
  out.push_back('\n');
  header(out, "parley_http_requests_in_flight", "gauge", "Requests being handled.");
  out.append("parley_http_requests_in_flight ");
  append_integer(out, in_flight);
  out.push_back('\n');
  header(out, "parley_http_pool_waiting", "gauge", "Requests waiting for a blocking thread.");
  out.append("parley_http_pool_waiting ");
  append_integer(out, pool_waiting);
  out.push_back('\n');
  header(out, "parley_http_refused_total", "counter",
         "Connections and requests refused with 503 by the overload limits, by limit.");
  out.append("parley_http_refused_total{limit=\"connections\"} ");
  append_integer(out, static_cast<int64_t>(refused_connections_.load(std::memory_order_relaxed)));
  out.append("\nparley_http_refused_total{limit=\"blocking_queue\"} ");
  append_integer(out, static_cast<int64_t>(refused_busy_.load(std::memory_order_relaxed)));
  out.push_back('\n');
  process_metrics(out);
}

}  // namespace parley
