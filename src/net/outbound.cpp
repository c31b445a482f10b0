#include "net/outbound.h"

#include <curl/curl.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/log.h"

namespace parley {

namespace {
using SteadyClock = std::chrono::steady_clock;

// Bytes curl reads at a time per transfer (its default is 16 KB, allocated for every transfer):
// provider streams come in small events, and a smaller buffer keeps a reply in flight small.
constexpr long kReceiveBuffer = 4 * 1024;
// Bytes curl sends at a time from a request body. Its default is 64 KB, allocated for every
// transfer that sends a body (every completion is a POST) and held until the transfer ends; its
// least, 16 KB, still sends the largest completion request in a few pieces.
constexpr long kSendBuffer = 16 * 1024;

class Loop;

class TransferImpl final : public Transfer, public std::enable_shared_from_this<TransferImpl> {
 public:
  TransferImpl(Loop& loop, TransferCall call) : loop_(loop), call_(std::move(call)) {}

  void pause() override { hold_ = true; }
  void resume() override;

  Loop& loop_;
  TransferCall call_;
  CURL* easy_ = nullptr;
  curl_slist* headers_ = nullptr;
  std::optional<CurlPin> pin_;
  std::string body_;
  bool truncated_ = false;
  bool stopped_ = false;
  bool hold_ = false;    // pause() was asked: the next piece pauses the transfer
  bool paused_ = false;  // curl holds the transfer paused
  size_t unpaused_ = 0;  // bytes handed over while held, not paused (multiplexing), since resume()
  bool finished_ = false;
  SteadyClock::time_point started_ = SteadyClock::now();
};

thread_local TransferImpl* serving = nullptr;  // the transfer whose on_body runs

// Whether the transfer runs over a protocol that multiplexes transfers on one connection (HTTP/2).
// libcurl 7.88 cannot pause one stream of such a connection alone: a frame for the paused stream
// that outgrows its buffer stops the reading of the whole connection, so every transfer
// multiplexed with it would wait for the slow reader
// (tests/unit/net/outbound_http2_pause_test.cpp).
bool multiplexing(CURL* easy) {
  long version = 0;
  curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &version);
  return version == CURL_HTTP_VERSION_2_0 || version == CURL_HTTP_VERSION_3;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<TransferImpl*>(user);
  size_t n = size * count;
  const SendRequest& r = t->call_.request;
  if (r.on_body) {
    long status = 0;
    curl_easy_getinfo(t->easy_, CURLINFO_RESPONSE_CODE, &status);
    if (status < 200 || status >= 300) return n;  // not the stream asked for: dropped
    if (t->hold_) {
      if (!multiplexing(t->easy_)) {
        // Not taken: curl keeps this piece, reads no more, and hands it over again on resume().
        t->paused_ = true;
        return CURL_WRITEFUNC_PAUSE;
      }
      // Handed over though the reader is behind; past kMostUnpaused since it fell behind, the
      // reader is too slow for the stream and the transfer ends (Transfer::pause).
      t->unpaused_ += n;
      if (t->unpaused_ > Transfer::kMostUnpaused) {
        t->stopped_ = true;
        return 0;
      }
      t->hold_ = false;
    }
    serving = t;
    bool more = r.on_body(std::string_view(data, n));
    serving = nullptr;
    if (more) return n;
    t->stopped_ = true;
    return 0;
  }
  size_t room = r.max_response_bytes - t->body_.size();
  if (n > room) {
    t->body_.append(data, room);
    t->truncated_ = true;
    return 0;  // stop reading: the cap is reached
  }
  t->body_.append(data, n);
  return n;
}

void set_method(CURL* c, const SendRequest& request) {
  if (request.method != "GET" && request.method != "POST")
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "POST" || !request.body.empty()) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
}

std::atomic<std::thread::id> loop_thread_id{};

// The loop: one thread, one curl multi handle, one epoll set. Everything that touches curl runs
// on the thread; other threads hand it work through post().
class Loop {
 public:
  Loop() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi_ = curl_multi_init();
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (multi_ == nullptr || epoll_ < 0 || wake_ < 0) {
      log_error("the outbound HTTP loop could not start", {{"error", std::string_view(std::strerror(errno))}});
      return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = wake_;
    epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &Loop::on_socket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &Loop::on_timer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    thread_ = std::thread([this] { run(); });
  }

  // Stops the thread between two rounds and joins it, leaving every transfer as it is: called
  // as the process exits, when no caller is left to hear of them.
  void stop_thread() {
    if (!thread_.joinable() || std::this_thread::get_id() == thread_.get_id()) return;
    post([this] { quitting_ = true; });
    thread_.join();
  }

  bool ready() const { return multi_ != nullptr && epoll_ >= 0 && wake_ >= 0; }

  void post(std::function<void()> task) {
    {
      std::lock_guard lock(mu_);
      inbox_.push_back(std::move(task));
    }
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_, &one, sizeof one);
  }

  void start(const std::shared_ptr<TransferImpl>& t) {
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    post([this, t] { add(t); });
  }

  // Ends a transfer: `rc` is curl's outcome (or CURLE_ABORTED_BY_CALLBACK for a cancel).
  void finish(TransferImpl& t, CURLcode rc) {
    if (t.finished_) return;
    t.finished_ = true;
    SendOutcome out;
    // A body cut at the cap is a response all the same.
    if (rc == CURLE_WRITE_ERROR && t.truncated_) rc = CURLE_OK;
    long code = 0;
    if (t.easy_ != nullptr) curl_easy_getinfo(t.easy_, CURLINFO_RESPONSE_CODE, &code);
    if (t.stopped_) {
      out.failure = SendFailure::kStopped;
      out.error = "stopped";
    } else if (rc == CURLE_OK) {
      out.status = code;
      if (!out.succeeded()) out.error = "HTTP " + std::to_string(code);
    } else {
      out.failure = rc == CURLE_OPERATION_TIMEDOUT ? SendFailure::kTimeout : SendFailure::kTransfer;
      out.error = curl_easy_strerror(rc);
    }
    // A stream the caller stopped once it had what it wanted still has its headers.
    if ((out.status || t.stopped_) && t.easy_ != nullptr) {
      for (const auto& name : t.call_.request.response_headers) {
        curl_header* h = nullptr;
        if (curl_easy_header(t.easy_, name.c_str(), 0, CURLH_HEADER, -1, &h) == CURLHE_OK &&
            h != nullptr)
          out.headers.emplace_back(name, h->value);
      }
    }
    out.body = std::move(t.body_);
    out.truncated = t.truncated_;
    out.duration_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - t.started_).count();
    std::shared_ptr<TransferImpl> held;
    if (t.easy_ != nullptr) {
      curl_multi_remove_handle(multi_, t.easy_);
      t.pin_.reset();
      curl_easy_cleanup(t.easy_);
      auto it = active_.find(t.easy_);
      if (it != active_.end()) {
        held = std::move(it->second);  // keeps `t` alive through its callback
        active_.erase(it);
      }
      t.easy_ = nullptr;
    }
    curl_slist_free_all(t.headers_);
    t.headers_ = nullptr;
    in_flight_.fetch_sub(1, std::memory_order_relaxed);
    auto done = std::move(t.call_.done);
    t.call_.request.on_body = nullptr;  // may hold the caller's state; not needed any more
    if (done) done(std::move(out));
  }

  size_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }

  void cancel_all() {
    post([this] {
      std::vector<std::shared_ptr<TransferImpl>> all;
      for (auto& [easy, t] : active_) all.push_back(t);
      for (auto& t : all) {
        t->stopped_ = true;
        finish(*t, CURLE_ABORTED_BY_CALLBACK);
      }
      std::vector<CURL*> raw;
      for (auto& [easy, done] : raw_) raw.push_back(easy);
      for (CURL* easy : raw) finish_raw(easy, CURLE_ABORTED_BY_CALLBACK);
    });
  }

  // A handle set up by its owner; `done` gets curl's outcome on the loop thread.
  void start_raw(CURL* easy, std::function<void(CURLcode)> done) {
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    post([this, easy, done = std::move(done)]() mutable {
      raw_.emplace(easy, std::move(done));
      if (curl_multi_add_handle(multi_, easy) != CURLM_OK) finish_raw(easy, CURLE_FAILED_INIT);
    });
  }

 private:
  void add(const std::shared_ptr<TransferImpl>& t) {
    CURL* c = curl_easy_init();
    if (c == nullptr) return finish(*t, CURLE_OUT_OF_MEMORY);
    t->easy_ = c;
    const SendRequest& r = t->call_.request;
    t->headers_ = curl_slist_append(nullptr, "Expect:");
    for (const auto& [name, value] : r.headers)
      t->headers_ = curl_slist_append(t->headers_, (name + ": " + value).c_str());
    if (t->call_.pin) t->pin_.emplace(c, *t->call_.pin);
    curl_easy_setopt(c, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, r.allow_http ? "http,https" : "https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(c, CURLOPT_BUFFERSIZE, kReceiveBuffer);
    curl_easy_setopt(c, CURLOPT_UPLOAD_BUFFERSIZE, kSendBuffer);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connect_timeout_ms));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout_ms));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, t->headers_);
    // Only https can multiplex here (HTTP/2 is negotiated by ALPN); over http:// waiting would
    // only queue calls behind one another's connections.
    if (r.share_connections && r.url.rfind("https://", 0) == 0) curl_easy_setopt(c, CURLOPT_PIPEWAIT, 1L);
    set_method(c, r);
    if (r.accept_compressed) curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, t.get());
    if (!t->call_.ca_file.empty()) {
      curl_easy_setopt(c, CURLOPT_CAINFO, t->call_.ca_file.c_str());
      curl_easy_setopt(c, CURLOPT_CAPATH, "/etc/ssl/certs");  // the system's, looked up per issuer
    }
    if (!t->call_.ca_bundle.empty()) {
      curl_blob blob{const_cast<char*>(t->call_.ca_bundle.data()), t->call_.ca_bundle.size(),
                     CURL_BLOB_NOCOPY};
      curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &blob);
    }
    active_.emplace(c, t);
    CURLMcode rc = curl_multi_add_handle(multi_, c);
    if (rc != CURLM_OK) finish(*t, CURLE_FAILED_INIT);
  }

  static int on_socket(CURL*, curl_socket_t s, int what, void* self, void*) {
    auto* loop = static_cast<Loop*>(self);
    if (what == CURL_POLL_REMOVE) {
      epoll_ctl(loop->epoll_, EPOLL_CTL_DEL, s, nullptr);
      return 0;
    }
    epoll_event ev{};
    ev.data.fd = s;
    ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    if (epoll_ctl(loop->epoll_, EPOLL_CTL_MOD, s, &ev) != 0 && errno == ENOENT)
      epoll_ctl(loop->epoll_, EPOLL_CTL_ADD, s, &ev);
    return 0;
  }

  static int on_timer(CURLM*, long timeout_ms, void* self) {
    auto* loop = static_cast<Loop*>(self);
    if (timeout_ms < 0) {
      loop->timer_at_.reset();
    } else {
      loop->timer_at_ = SteadyClock::now() + std::chrono::milliseconds(timeout_ms);
    }
    return 0;
  }

  void run_inbox() {
    uint64_t count = 0;
    [[maybe_unused]] ssize_t n = ::read(wake_, &count, sizeof count);
    std::vector<std::function<void()>> tasks;
    {
      std::lock_guard lock(mu_);
      tasks.swap(inbox_);
    }
    for (auto& task : tasks) task();
  }

  void finish_raw(CURL* easy, CURLcode rc) {
    auto it = raw_.find(easy);
    if (it == raw_.end()) return;
    auto done = std::move(it->second);
    raw_.erase(it);
    curl_multi_remove_handle(multi_, easy);
    in_flight_.fetch_sub(1, std::memory_order_relaxed);
    done(rc);
  }

  void read_done() {
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi_, &left)) {
      if (m->msg != CURLMSG_DONE) continue;
      if (raw_.count(m->easy_handle) != 0) {
        finish_raw(m->easy_handle, m->data.result);
        continue;
      }
      auto it = active_.find(m->easy_handle);
      if (it == active_.end()) continue;
      std::shared_ptr<TransferImpl> t = it->second;
      finish(*t, m->data.result);
    }
  }

  void run() {
    pthread_setname_np(pthread_self(), "outbound");  // as `top -H` and /proc show it
    loop_thread_id.store(std::this_thread::get_id());
    std::vector<epoll_event> events(512);
    int running = 0;
    while (!quitting_) {
      int wait_ms = -1;
      if (timer_at_) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(*timer_at_ - SteadyClock::now()).count();
        wait_ms = static_cast<int>(std::max<int64_t>(0, left));
      }
      int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), wait_ms);
      if (n < 0 && errno != EINTR) {
        log_error("outbound loop wait failed", {{"error", std::string_view(std::strerror(errno))}});
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      for (int i = 0; i < n && !quitting_; ++i) {
        int fd = events[i].data.fd;
        if (fd == wake_) {
          run_inbox();
          continue;
        }
        uint32_t e = events[i].events;
        int flags = ((e & EPOLLIN) ? CURL_CSELECT_IN : 0) | ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                    ((e & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(multi_, fd, flags, &running);
      }
      if (quitting_) break;
      if (timer_at_ && SteadyClock::now() >= *timer_at_) {
        timer_at_.reset();
        curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
      }
      read_done();
    }
  }

  CURLM* multi_ = nullptr;
  int epoll_ = -1;
  int wake_ = -1;
  std::thread thread_;
  bool quitting_ = false;  // the loop thread's own
  std::mutex mu_;
  std::vector<std::function<void()>> inbox_;
  std::optional<SteadyClock::time_point> timer_at_;
  std::unordered_map<CURL*, std::shared_ptr<TransferImpl>> active_;
  std::unordered_map<CURL*, std::function<void(CURLcode)>> raw_;  // perform_on_loop's
  std::atomic<size_t> in_flight_{0};
};

// Stops the loop's thread when the process exits.
struct LoopStop {
  Loop& loop;
  ~LoopStop() { loop.stop_thread(); }
};

// Made on first use and never destroyed, so nothing a transfer holds is torn down under it. Its
// thread is stopped and joined as the process exits, before the logger goes: the logger is made
// first, so it is destroyed after `stop`. (A thread left running at exit could call a transfer's
// callback, or log, into objects the exit had destroyed.)
Loop& the_loop() {
  static Loop* loop = [] {
    flush_logs();  // makes the logger, if nothing has yet
    return new Loop();
  }();
  static LoopStop stop{*loop};
  return *loop;
}

void TransferImpl::resume() {
  loop_.post([self = shared_from_this()] {
    self->hold_ = false;
    self->unpaused_ = 0;
    if (!self->paused_ || self->finished_ || self->easy_ == nullptr) return;
    self->paused_ = false;
    curl_easy_pause(self->easy_, CURLPAUSE_CONT);
  });
}

}  // namespace

std::shared_ptr<Transfer> start_transfer(TransferCall call) {
  Loop& loop = the_loop();
  auto t = std::make_shared<TransferImpl>(loop, std::move(call));
  if (!loop.ready()) {
    SendOutcome out;
    out.failure = SendFailure::kTransfer;
    out.error = "could not start a transfer";
    if (t->call_.done) t->call_.done(std::move(out));
    return t;
  }
  loop.start(t);
  return t;
}

CURLcode perform_on_loop(CURL* easy) {
  Loop& loop = the_loop();
  if (!loop.ready() || on_outbound_loop()) return CURLE_FAILED_INIT;
  std::promise<CURLcode> done;
  auto outcome = done.get_future();
  loop.start_raw(easy, [&done](CURLcode rc) { done.set_value(rc); });
  return outcome.get();
}

std::shared_ptr<Transfer> this_transfer() {
  return serving == nullptr ? nullptr : serving->shared_from_this();
}

void cancel_transfers() {
  Loop& loop = the_loop();
  if (loop.ready()) loop.cancel_all();
}

void start_outbound_loop() { (void)the_loop(); }

size_t transfers_in_flight() { return the_loop().in_flight(); }

bool on_outbound_loop() { return loop_thread_id.load() == std::this_thread::get_id(); }

}  // namespace parley
