// parley serve: the HTTP(S) server and its background work.
#include <atomic>
#include <condition_variable>
#include <thread>

#include "api/app.h"
#include "domain/agent_cache.h"
#include "domain/chat_slots.h"
#include "http/responses.h"
#include "api/routes.h"
#include "cli/commands.h"
#include "core/cpu_count.h"
#include "core/log.h"
#include "core/random.h"
#include "engine/retrieval_engine.h"
#include "http/server.h"
#include "knowledge/knowledge_index.h"
#include "workers/trainer.h"
#include "cli/webhook_options.h"
#include "cli/llm_options.h"
#include "engine/openai_engine.h"
#include "engine/engine_router.h"
#include "store/rate_window_repo.h"
#include "widget/widget_limits.h"

namespace parley {

namespace {
struct ServeOptions {
  std::string listen = "127.0.0.1:8080";
  int log_flush_ms = 200;
  size_t threads = 0;
  int idle_timeout_s = 60;
  int read_timeout_s = 30;
  std::string tls_cert;
  std::string tls_key;
  int64_t rate_limit_per_minute = 60;
  TrainerOptions training;
  int64_t console_session_hours = 12;
  int64_t console_login_failures_per_email = 5;
  int64_t console_login_failures_per_address = 50;
  int64_t console_login_tracked_max = 100'000;
  WebhookServiceOptions webhooks;
  LlmServeOptions llm;
  ChatConfig chat;
  WidgetOptions widget;
  int64_t engine_delay_ms = 0;
  size_t reply_threads = 32;
  ChatSlotLimits chat_slots;  // `total` comes from reply_threads
  size_t max_connections = 0;
  size_t blocking_threads = 64;
  size_t blocking_queue = 256;
  int linger_ms = 5000;
  size_t linger_bytes = 4 * 1024 * 1024;
  std::string test_clock_file;  // tests only: see OffsetFileClock
};

Result<std::pair<std::string, uint16_t>> split_listen(const std::string& listen) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return ApiError::invalid("--listen must be HOST:PORT");
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  try {
    int port = std::stoi(listen.substr(colon + 1));
    if (port < 0 || port > 65535) throw std::out_of_range("port");
    return std::pair{host, static_cast<uint16_t>(port)};
  } catch (const std::exception&) {
    return ApiError::invalid("--listen must be HOST:PORT with a port from 0 to 65535");
  }
}

// Writes rate-limit windows behind, once a second, until stopped.
class Maintenance {
 public:
  Maintenance(Database& db, RateLimiter& limiter) : db_(db), limiter_(limiter) {
    thread_ = std::thread([this] { loop(); });
  }
  ~Maintenance() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
    flush();
  }

 private:
  void loop() {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::seconds(1), [&] { return stop_; })) {
      lock.unlock();
      flush();
      lock.lock();
    }
  }
  void flush() {
    auto dirty = limiter_.take_dirty();
    if (dirty.empty()) return;
    db_.write_async([dirty = std::move(dirty)](Connection& c) -> Result<void> {
      for (const auto& w : dirty) PARLEY_TRY(RateWindowRepo::save(c, w));
      return {};
    });
  }

  Database& db_;
  RateLimiter& limiter_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

int serve(const GlobalOptions& global, const ServeOptions& o) {
  auto hp = split_listen(o.listen);
  if (!hp.ok()) return print_error(hp.error());
  auto db = open_configured_database(global);
  if (!db.ok()) return print_error(db.error());
  Database& database = **db;
  buffer_logging(o.log_flush_ms);

  auto chosen_clock = serve_clock(o.test_clock_file, hp->first);
  if (!chosen_clock.ok()) return print_error(chosen_clock.error());
  const Clock& clock = **chosen_clock;
  SecureRandom random;
  KeyCache keys(database, clock);
  RateLimiter limiter(clock, o.rate_limit_per_minute);
  auto windows = RateWindowRepo::current(database.read(), clock.now_ms());
  if (windows.ok())
    for (const auto& w : *windows) limiter.restore(w);
  KnowledgeIndex knowledge(database);
  TrainerOptions training = o.training;
  training.requeue_on_start = database.backend() == "sqlite";
  Trainer trainer(Services{database, clock, random}, knowledge, training);
  ConsoleOptions console_options;
  console_options.session_ttl_ms = o.console_session_hours * 60 * 60 * 1000;
  console_options.login.failures_per_email = o.console_login_failures_per_email;
  console_options.login.failures_per_address = o.console_login_failures_per_address;
  console_options.login.max_subjects = o.console_login_tracked_max;
  ConsoleServices console(clock, console_options);
  RetrievalOptions retrieval;
  retrieval.delay_ms = o.engine_delay_ms;
  RetrievalEngine engine(clock, retrieval);
  LlmServeOptions llm = o.llm;
  read_llm_secrets(llm);
  SystemResolver action_resolver;
  ApiActionCaller actions(action_resolver, action_options(llm, o.webhooks.allow_private_targets,
                                                          o.webhooks.extra_ca_file));
  OpenAiEngine openai(clock, llm.llm, &actions);
  EngineRouter engines(clock, engine, openai);
  Mailer mailer(llm.mail);
  ChatSlotLimits slot_limits = o.chat_slots;
  slot_limits.total = static_cast<int64_t>(o.reply_threads);
  ChatSlots chat_slots(slot_limits);  // before the pool: engines still running hold its slots
  ThreadPool reply_pool(o.reply_threads);
  App app{database, clock, random, keys, limiter, knowledge, trainer, console, engines, reply_pool, o.chat};
  AgentCache agent_cache(database);
  app.agent_cache = &agent_cache;
  app.chat_slots = &chat_slots;
  app.mailer = &mailer;
  auto webhooks = WebhookService::create(database, clock, random, o.webhooks);
  if (!webhooks.ok()) return print_error(webhooks.error());
  app.webhook_policy = &(*webhooks)->policy();
  app.widget = o.widget;
  WidgetLimits widget_limits(clock, o.widget);
  app.widget_limits = &widget_limits;
  Router router;
  register_routes(router, app);

  ServerOptions so;
  so.host = hp->first;
  so.port = hp->second;
  so.io_threads = o.threads != 0 ? o.threads : usable_cpu_count();
  so.max_connections = o.max_connections != 0 ? o.max_connections : default_max_connections();
  so.blocking_threads = o.blocking_threads;
  so.blocking_queue = o.blocking_queue;
  so.linger_ms = o.linger_ms;
  so.linger_bytes = o.linger_bytes;
  so.idle_timeout_s = o.idle_timeout_s;
  so.read_timeout_s = o.read_timeout_s;
  so.tls_cert_file = o.tls_cert;
  so.tls_key_file = o.tls_key;
  // Handlers wait for engines, at most one per reply thread: fewer reply threads than handler
  // threads keeps handler threads free for every other request whatever the engines do.
  if (o.reply_threads >= so.blocking_threads) {
    return print_error(ApiError::invalid("--reply-threads must be below " +
                                         std::to_string(so.blocking_threads) +
                                         ", the request handlers' threads"));
  }
  ServerHooks hooks;
  hooks.on_error = [](const ApiError& e, Request&) { return error_response(e); };
  FastRandom request_ids(random);
  hooks.new_request_id = [&request_ids](std::string& id) {
    id.append("req_");
    append_random_base62(request_ids, 22, id);
  };
  hooks.on_logged = [](const RequestLog& l) {
    log_info("request", {{"method", l.method}, {"path", l.path}, {"status", int64_t{l.status}},
                         {"ms", l.duration_ms}, {"requestId", l.request_id}, {"remote", l.remote}});
  };
  try {
    HttpServer server(so, router, std::move(hooks));
    uint16_t port = server.listen();
    bool tls = !o.tls_cert.empty();
    std::string address = (so.host.find(':') != std::string::npos ? "[" + so.host + "]" : so.host) + ":" +
                          std::to_string(port);
    log_info("listening", {{"address", std::string_view(address)}, {"tls", tls},
                           {"database", database.backend()},
                           {"rateLimitPerMinute", o.rate_limit_per_minute},
                           {"ioThreads", static_cast<int64_t>(so.io_threads)},
                           {"maxConnections", static_cast<int64_t>(so.max_connections)}});
    flush_logs();
    if (!tls) log_warn("serving plain HTTP; put a TLS proxy in front or pass --tls-cert and --tls-key");
    Maintenance maintenance(database, limiter);
    trainer.start();
    (*webhooks)->start();
    server.run();
    (*webhooks)->stop();
    log_info("stopped");
    flush_logs();
  } catch (const std::exception& e) {
    log_error("server failed", {{"error", std::string_view(e.what())}});
    return 1;
  }
  return 0;
}
}  // namespace

void add_serve_command(CLI::App& app, GlobalOptions& global, CommandRun& run) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Run the HTTP(S) server");
  cmd->add_option("--listen", o->listen, "HOST:PORT to listen on (port 0 picks a free one)")
      ->envname("PARLEY_LISTEN")
      ->capture_default_str();
  cmd->add_option("--log-flush-ms", o->log_flush_ms,
                  "Write buffered log lines this often (warnings and errors at once); 0 writes every line at once")
      ->envname("PARLEY_LOG_FLUSH_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--threads", o->threads,
                  "I/O threads (default: one per CPU the process may use: affinity mask and cgroup CPU quota)")
      ->envname("PARLEY_THREADS");
  cmd->add_option("--max-connections", o->max_connections,
                  "Open connections before new ones get 503 (default: from the descriptor limit)")
      ->envname("PARLEY_MAX_CONNECTIONS");
  cmd->add_option("--blocking-threads", o->blocking_threads,
                  "Threads running handlers that block (writes, chat replies)")
      ->envname("PARLEY_BLOCKING_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--blocking-queue", o->blocking_queue,
                  "Requests that may wait for a blocking worker before new ones get 503")
      ->envname("PARLEY_BLOCKING_QUEUE")
      ->capture_default_str();
  cmd->add_option("--linger-ms", o->linger_ms,
                  "After an early error reply, read and drop the rest of the request this long at most (0: off)")
      ->envname("PARLEY_LINGER_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--linger-bytes", o->linger_bytes,
                  "After an early error reply, read and drop this many bytes at most before closing")
      ->envname("PARLEY_LINGER_BYTES")
      ->capture_default_str();
  cmd->add_option("--idle-timeout-s", o->idle_timeout_s, "Close a kept-alive connection idle this long")
      ->envname("PARLEY_IDLE_TIMEOUT_S")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--read-timeout-s", o->read_timeout_s,
                  "Close a connection that takes longer to send a request, or to take a response")
      ->envname("PARLEY_READ_TIMEOUT_S")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--tls-cert", o->tls_cert, "PEM certificate chain; serves HTTPS with --tls-key")
      ->envname("PARLEY_TLS_CERT");
  cmd->add_option("--tls-key", o->tls_key, "PEM private key")->envname("PARLEY_TLS_KEY");
  cmd->add_option("--rate-limit-per-minute", o->rate_limit_per_minute, "Requests per API key per minute")
      ->envname("PARLEY_RATE_LIMIT_PER_MINUTE")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--training-threads", o->training.threads, "Training workers")
      ->envname("PARLEY_TRAINING_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--training-delay-ms", o->training.delay_ms,
                  "Pause before claiming and before finishing each source (tests watch the states)")
      ->envname("PARLEY_TRAINING_DELAY_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--console-session-hours", o->console_session_hours, "Lifetime of a console login session")
      ->envname("PARLEY_CONSOLE_SESSION_HOURS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--console-login-failures-per-email", o->console_login_failures_per_email,
                  "Failed console logins per email before a 15-minute block")
      ->envname("PARLEY_CONSOLE_LOGIN_FAILURES_PER_EMAIL")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--console-login-failures-per-address", o->console_login_failures_per_address,
                  "Failed console logins per remote address before a 15-minute block")
      ->envname("PARLEY_CONSOLE_LOGIN_FAILURES_PER_ADDRESS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--console-login-tracked-max", o->console_login_tracked_max,
                  "Emails (and, apart, addresses) the login throttle tracks at once; oldest evicted first")
      ->envname("PARLEY_CONSOLE_LOGIN_TRACKED_MAX")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  add_webhook_serve_options(*cmd, o->webhooks);
  add_llm_serve_options(*cmd, o->llm);
  cmd->add_option("--chat-timeout-ms", o->chat.timeout_ms, "A chat reply taking longer ends with 504 timeout")
      ->envname("PARLEY_CHAT_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--agent-replies-per-hour", o->chat.replies_per_agent_hour,
                  "Replies per agent per hour before 429 agent_busy")
      ->envname("PARLEY_AGENT_REPLIES_PER_HOUR")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--country-header", o->widget.country_header,
                  "Trusted request header holding the widget visitor's country code (off when empty)")
      ->envname("PARLEY_COUNTRY_HEADER");
  cmd->add_option("--client-address-header", o->widget.client_address_header,
                  "Trusted request header holding the client's address, e.g. X-Forwarded-For "
                  "(its last entry); empty: the peer's address")
      ->envname("PARLEY_CLIENT_ADDRESS_HEADER");
  struct WidgetLimitOption {
    const char* flag;
    const char* env;
    int64_t* value;
    const char* help;
  };
  for (const auto& w : std::initializer_list<WidgetLimitOption>{
           {"--widget-requests-per-minute-per-address", "PARLEY_WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS",
            &o->widget.requests_per_minute_per_address, "Widget requests per client address per minute"},
           {"--widget-messages-per-minute-per-address", "PARLEY_WIDGET_MESSAGES_PER_MINUTE_PER_ADDRESS",
            &o->widget.messages_per_minute_per_address, "Widget chat messages per client address per minute"},
           {"--widget-visitors-per-address", "PARLEY_WIDGET_VISITORS_PER_ADDRESS",
            &o->widget.visitors_per_address,
            "How many times an agent's messagesPerVisitor one client address may use in a day"},
           {"--widget-records-per-conversation-per-hour", "PARLEY_WIDGET_RECORDS_PER_CONVERSATION_PER_HOUR",
            &o->widget.records_per_conversation_per_hour,
            "Forms, bookings, return requests and contact details per widget conversation per hour"},
           {"--widget-record-max-bytes", "PARLEY_WIDGET_RECORD_MAX_BYTES", &o->widget.record_max_bytes,
            "Bytes of JSON in a widget form's fields or a contact's customFields"},
           {"--widget-contacts-per-hour-per-address", "PARLEY_WIDGET_CONTACTS_PER_HOUR_PER_ADDRESS",
            &o->widget.contacts_per_hour_per_address, "Widget contact details per client address per hour"},
           {"--widget-contacts-per-hour-per-agent", "PARLEY_WIDGET_CONTACTS_PER_HOUR_PER_AGENT",
            &o->widget.contacts_per_hour_per_agent, "Widget contact details per agent per hour"}}) {
    cmd->add_option(w.flag, *w.value, w.help)->envname(w.env)->check(CLI::PositiveNumber)->capture_default_str();
  }
  cmd->add_option("--reply-threads", o->reply_threads,
                  "Threads running reply engines; also the most engines running at once (503 past it)")
      ->envname("PARLEY_REPLY_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--agent-concurrent-replies", o->chat_slots.per_agent,
                  "Replies one agent's engine may write at once before 429 agent_busy")
      ->envname("PARLEY_AGENT_CONCURRENT_REPLIES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--account-concurrent-replies", o->chat_slots.per_account,
                  "Replies the agents of one account may write at once before 429 agent_busy")
      ->envname("PARLEY_ACCOUNT_CONCURRENT_REPLIES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--engine-delay-ms", o->engine_delay_ms,
                  "Test only: the retrieval engine waits this long before each reply")
      ->envname("PARLEY_ENGINE_DELAY_MS")
      ->check(CLI::NonNegativeNumber);
  // Left out of --help (an empty group): it exists only for the end-to-end tests.
  cmd->add_option("--test-clock-file", o->test_clock_file,
                  "Tests only: a file holding milliseconds added to the clock (loopback --listen only)")
      ->envname("PARLEY_TEST_CLOCK_FILE")
      ->group("");
  cmd->callback([&global, &run, o] { run = [&global, o] { return serve(global, *o); }; });
}

void add_migrate_command(CLI::App& app, GlobalOptions& global, CommandRun& run) {
  auto* cmd = app.add_subcommand("migrate", "Apply pending schema migrations and exit");
  cmd->callback([&global, &run] {
    run = [&global] {
      auto db = open_configured_database(global);
      if (!db.ok()) return print_error(db.error());
      print_json(R"({"migrated":true})");
      return 0;
    };
  });
}

}  // namespace parley
