#include "extract/isolated_reader.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <new>

#include "core/child_process.h"
#include "core/log.h"
#include "extract/charset.h"
#include "extract/extract.h"
#include "extract/pdf.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARLEY_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PARLEY_ADDRESS_SANITIZER 1
#endif

namespace parley {

namespace {

// The child's exit codes besides 0 (its answer written).
constexpr int kBadCall = 2;      // its arguments are not the parent's
constexpr int kOutOfMemory = 3;  // an allocation failed (std::bad_alloc)
constexpr int kCpuSpent = 4;     // its CPU budget is spent (SIGXCPU)
constexpr int kSetupFailed = 5;  // a limit could not be set, or its input not read
// What of an answer is kept: a title's bytes, an error message's.
constexpr size_t kMaxTitleBytes = 4096;
constexpr size_t kMaxMessageBytes = 500;

std::string& reader_executable() {
  static std::string executable;
  return executable;
}

// The answer on the child's standard output: 'E' and an error's message, or 'D', the title and
// the blocks, each string as a 4-byte little-endian length and its bytes.
void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void put_string(std::string& out, std::string_view s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

std::string encode(const Result<ExtractedDocument>& read) {
  std::string out;
  if (!read.ok()) {
    out.push_back('E');
    out.append(read.error().message);
    return out;
  }
  out.push_back('D');
  put_string(out, read->title);
  put_u32(out, static_cast<uint32_t>(read->blocks.size()));
  for (const TextBlock& b : read->blocks) {
    out.push_back(static_cast<char>(b.kind));
    out.push_back(static_cast<char>(b.level));
    put_string(out, b.text);
  }
  return out;
}

class Decoder {
 public:
  explicit Decoder(std::string_view in) : in_(in) {}
  bool u8(int& v) {
    if (in_.empty()) return false;
    v = static_cast<unsigned char>(in_[0]);
    in_.remove_prefix(1);
    return true;
  }
  bool u32(uint32_t& v) {
    if (in_.size() < 4) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<unsigned char>(in_[i])} << (8 * i);
    in_.remove_prefix(4);
    return true;
  }
  bool string(std::string& s) {
    uint32_t n = 0;
    if (!u32(n) || in_.size() < n) return false;
    s.assign(in_.substr(0, n));
    in_.remove_prefix(n);
    return true;
  }
  bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

// The first `max` bytes of `s` at most, cut before a character's continuation bytes.
std::string_view cut_utf8(std::string_view s, size_t max) {
  if (s.size() <= max) return s;
  while (max > 0 && (static_cast<unsigned char>(s[max]) & 0xC0) == 0x80) --max;
  return s.substr(0, max);
}

ApiError reader_failed() {
  return ApiError::invalid("The file is damaged: the PDF reader failed on it.");
}

Result<ExtractedDocument> decode(std::string_view answer) {
  if (answer.empty()) return reader_failed();
  if (answer[0] == 'E')
    return ApiError::invalid(repair_utf8(cut_utf8(answer.substr(1), kMaxMessageBytes)));
  if (answer[0] != 'D') return reader_failed();
  Decoder in(answer.substr(1));
  ExtractedDocument doc;
  uint32_t blocks = 0;
  if (!in.string(doc.title) || !in.u32(blocks)) return reader_failed();
  for (uint32_t i = 0; i < blocks; ++i) {
    TextBlock b;
    int kind = 0;
    if (!in.u8(kind) || !in.u8(b.level) || !in.string(b.text)) return reader_failed();
    if (kind > static_cast<int>(BlockKind::kPreformatted)) return reader_failed();
    b.kind = static_cast<BlockKind>(kind);
    doc.blocks.push_back(std::move(b));
  }
  if (!in.done()) return reader_failed();
  repair_document_utf8(doc);
  return doc;
}

template <typename T>
bool parse_number(const char* s, T& v) {
  const char* end = s + std::strlen(s);
  auto [p, ec] = std::from_chars(s, end, v);
  return ec == std::errc() && p == end;
}

void on_cpu_spent(int) { ::_exit(kCpuSpent); }

// `wanted` within the hard limit of `resource`, which an unprivileged process cannot raise (a
// systemd unit's LimitCPU= or LimitAS=, a shell's ulimit).
rlimit within_hard_limit(int resource, rlim_t soft, rlim_t hard) {
  rlimit now{};
  if (::getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY) {
    soft = std::min(soft, now.rlim_max);
    hard = std::min(hard, now.rlim_max);
  }
  return {soft, hard};
}

// Ends this process (exit code kCpuSpent) once it has used `ms` of CPU time: a timer of the
// process's CPU time sends SIGXCPU; RLIMIT_CPU, which counts whole seconds, sends it again one to
// two seconds later and SIGKILL a second after that, as backstops.
bool limit_cpu(int64_t ms) {
  struct sigaction action {};
  action.sa_handler = &on_cpu_spent;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGXCPU, &action, nullptr) != 0) return false;
  timer_t timer;
  sigevent event{};
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGXCPU;
  if (::timer_create(CLOCK_PROCESS_CPUTIME_ID, &event, &timer) != 0) return false;
  itimerspec when{};
  when.it_value.tv_sec = ms / 1000;
  when.it_value.tv_nsec = (ms % 1000) * 1'000'000;
  if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
  if (::timer_settime(timer, 0, &when, nullptr) != 0) return false;
  rlim_t seconds = static_cast<rlim_t>(ms / 1000 + 2);
  rlimit cpu = within_hard_limit(RLIMIT_CPU, seconds, seconds + 1);
  return ::setrlimit(RLIMIT_CPU, &cpu) == 0;
}

// Lets this process map at most `bytes` beyond what it maps now.
bool limit_memory(size_t bytes) {
#if defined(PARLEY_ADDRESS_SANITIZER)
  (void)bytes;  // AddressSanitizer's shadow memory is terabytes of address space
  return true;
#else
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  if (!(statm >> pages)) return false;
  rlim_t now = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
  rlimit as = within_hard_limit(RLIMIT_AS, now + bytes, now + bytes);
  return ::setrlimit(RLIMIT_AS, &as) == 0;
#endif
}

bool read_all(int fd, std::string& out) {
  char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out.append(buffer, static_cast<size_t>(n));
  }
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

int read_as_child(int argc, char** argv) {
  pid_t parent = 0;
  int64_t cpu_ms = 0;
  size_t memory = 0;
  ExtractLimits limits;
  if (argc != 8 || std::string_view(argv[2]) != "pdf" || !parse_number(argv[3], parent) ||
      !parse_number(argv[4], cpu_ms) || !parse_number(argv[5], memory) ||
      !parse_number(argv[6], limits.max_text_chars) || !parse_number(argv[7], limits.max_pdf_pages))
    return kBadCall;
  // Ends with its parent; a parent already gone (the child now another's) ends it here.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) return kBadCall;
  // The first process the kernel's out-of-memory killer takes; then no core dump, not even to a
  // core_pattern pipe (systemd-coredump), for a refused file. In that order: a process that is
  // not dumpable has its /proc/self files owned by root.
  if (int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC); fd >= 0) {
    [[maybe_unused]] ssize_t n = ::write(fd, "1000", 4);
    ::close(fd);
  }
  ::prctl(PR_SET_DUMPABLE, 0);
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (!limit_cpu(cpu_ms)) return kSetupFailed;
  std::string bytes;
  if (!read_all(STDIN_FILENO, bytes)) return kSetupFailed;
  if (!limit_memory(memory)) return kSetupFailed;
  try {
    Result<ExtractedDocument> read = extract_pdf(bytes, limits);
    if (read.ok()) {
      cut_to_limit(*read, limits.max_text_chars);
      read->title.resize(cut_utf8(read->title, kMaxTitleBytes).size());
    }
    return write_all(STDOUT_FILENO, encode(read)) ? 0 : kSetupFailed;
  } catch (const std::bad_alloc&) {
    return kOutOfMemory;
  }
}

// The environment a reader gets: none of the node's (its secrets), but where its libraries are
// (an install outside the standard paths) and a sanitizer build's options.
std::vector<std::string> reader_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    for (std::string_view name :
         {"LD_LIBRARY_PATH=", "ASAN_OPTIONS=", "UBSAN_OPTIONS=", "LSAN_OPTIONS="})
      if (entry.rfind(name, 0) == 0) out.emplace_back(entry);
  }
  return out;
}

// A reader that ended in a way no file explains (its setup failed, the dynamic loader, a
// sanitizer's report): the operator is told; in a sanitizer build a report fails the run.
void log_reader_end(std::string_view what, const ChildOutcome& outcome) {
  const std::string said = repair_utf8(outcome.error_tail);
  log_warn(what,
           {{"status", static_cast<int64_t>(outcome.status)}, {"stderr", std::string_view(said)}});
#if defined(PARLEY_ADDRESS_SANITIZER)
  if (outcome.error_tail.find("Sanitizer") != std::string::npos ||
      outcome.error_tail.find("runtime error:") != std::string::npos) {
    flush_logs();
    std::abort();
  }
#endif
}

}  // namespace

void read_pdfs_in_child_processes(std::string executable) {
  // run_child reaps its children: an ignored SIGCHLD, inherited from a supervisor, would have the
  // kernel reap them first.
  if (!executable.empty()) ::signal(SIGCHLD, SIG_DFL);
  reader_executable() = std::move(executable);
}

Result<ExtractedDocument> read_pdf(std::string_view bytes, const ExtractLimits& limits) {
  const std::string& executable = reader_executable();
  if (executable.empty()) return extract_pdf(bytes, limits);
  const int64_t cpu_ms = std::clamp<int64_t>(
      limits.reader_cpu_ms + limits.reader_cpu_ms_per_mib * static_cast<int64_t>(std::min<size_t>(
                                                                bytes.size() >> 20, 1 << 20)),
      1, 3'600'000);
  ChildCall call;
  call.executable = executable;
  call.args = {std::string(kReaderCommand),
               "pdf",
               std::to_string(::getpid()),
               std::to_string(cpu_ms),
               std::to_string(limits.reader_memory_bytes),
               std::to_string(limits.max_text_chars),
               std::to_string(limits.max_pdf_pages)};
  call.environment = reader_environment();
  call.input = bytes;
  // A backstop: the child spends its CPU budget unless the machine is too busy to give it.
  call.deadline = std::chrono::milliseconds(4 * cpu_ms + 10'000);
  // Each character at most 4 bytes and each block 6 bytes besides, the title and a margin.
  call.max_output = limits.max_text_chars * 10 + kMaxTitleBytes + (1u << 20);
  ChildOutcome outcome = run_child(call);
  using End = ChildOutcome::End;
  const ApiError too_long = ApiError::invalid("The PDF takes too long to read.");
  const ApiError too_big = ApiError::invalid("The PDF needs too much memory to read.");
  const ApiError not_now{ErrorCode::kUnavailable, "The PDF could not be read now; try again."};
  switch (outcome.end) {
    case End::kExited:
      if (outcome.status == 0) {
        auto doc = decode(outcome.output);
        if (!doc.ok() && doc.error().message == reader_failed().message)
          log_reader_end("pdf reader answer unreadable", outcome);
        return doc;
      }
      if (outcome.status == kOutOfMemory) return too_big;
      if (outcome.status == kCpuSpent) return too_long;
      // Its own setup, the dynamic loader (127), a sanitizer: not the file's doing.
      log_reader_end("pdf reader failed", outcome);
      return not_now;
    case End::kSignalled:
      // poppler's allocator says so on standard error, then aborts; so does the runtime when a
      // std::bad_alloc meets a noexcept frame.
      if (outcome.status == SIGABRT &&
          (outcome.error_tail.find("Out of memory") != std::string::npos ||
           outcome.error_tail.find("std::bad_alloc") != std::string::npos))
        return too_big;
      // RLIMIT_CPU's SIGKILL after its budget; else the kernel's out-of-memory killer.
      if (outcome.status == SIGKILL) return outcome.cpu_ms >= cpu_ms ? too_long : too_big;
      log_reader_end("pdf reader crashed", outcome);
      return reader_failed();
    case End::kTimedOut:
      return too_long;
    case End::kOutputTooLong:
      log_reader_end("pdf reader answer too long", outcome);
      return reader_failed();
    case End::kStopped:
      return ApiError{ErrorCode::kUnavailable, "The server is stopping; the PDF was not read."};
    case End::kNotStarted:
    case End::kUnknown:
      log_warn("pdf reader not started",
               {{"error", std::string_view(std::strerror(outcome.status))}});
      return not_now;
  }
  return reader_failed();
}

bool is_reader_call(int argc, char** argv) { return argc >= 2 && argv[1] == kReaderCommand; }

void run_reader(int argc, char** argv) { ::_exit(read_as_child(argc, argv)); }

}  // namespace parley
