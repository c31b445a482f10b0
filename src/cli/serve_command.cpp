// parley serve: the HTTP(S) server and its background work. The options are parsed here; the
// node they configure is built and run by src/server/node.h.
#include "cli/commands.h"

#include <sys/resource.h>

#include <cstdlib>

#include "cli/crawl_options.h"
#include "cli/llm_options.h"
#include "cli/webhook_options.h"
#include "cli/workspace_options.h"
#include "core/json.h"
#include "core/log.h"
#include "core/thread_priority.h"
#include "net/outbound.h"
#include "server/node.h"
#include "store/copy_installation.h"
#include "views/heartbeats.h"

namespace parley {

namespace {
struct ServeOptions {
  std::string listen = "127.0.0.1:8080";
  int log_flush_ms = 200;
  int work_nice = 10;  // core/thread_priority.h
  LlmServeOptions llm;
  WorkspaceServeOptions workspace;
  CrawlOptions crawl;
  NodeOptions node;
};

Result<std::pair<std::string, uint16_t>> split_listen(const std::string& listen) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return ApiError::invalid("--listen must be HOST:PORT");
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  try {
    int port = std::stoi(listen.substr(colon + 1));
    if (port < 0 || port > 65535) throw std::out_of_range("port");
    return std::pair{host, static_cast<uint16_t>(port)};
  } catch (const std::exception&) {
    return ApiError::invalid("--listen must be HOST:PORT with a port from 0 to 65535");
  }
}

// Each reply in flight holds the client's connection and, over HTTP/1.1, one to its provider: the
// soft descriptor limit (often 1,024) is raised to the hard one, as nginx's worker_rlimit_nofile
// and Go's runtime do. The connection cap is derived from the limit after this.
void raise_descriptor_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= r.rlim_max) return;
  r.rlim_cur = r.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &r) != 0) log_warn("could not raise the open-file limit");
}

int serve(const GlobalOptions& global, ServeOptions o) {
  auto hp = split_listen(o.listen);
  if (!hp.ok()) return print_error(hp.error());
  NodeOptions& node = o.node;
  node.host = hp->first;
  node.port = hp->second;
  read_llm_secrets(o.llm);
  // A secret: from the environment only, never a flag that `ps` shows.
  if (const char* token = std::getenv("PARLEY_METRICS_TOKEN")) node.metrics_token = token;
  node.llm = o.llm.llm;
  node.mail = o.llm.mail;
  node.actions =
      action_options(o.llm, node.webhooks.allow_private_targets, node.webhooks.extra_ca_file);
  node.tools = tool_options(o.llm);
  // The webhooks' switch for private targets covers crawling too (tests, local development).
  finish_crawl_options(o.crawl, node.webhooks.allow_private_targets);
  node.crawl = o.crawl.settings;
  node.crawler = o.crawl.crawler;
  // Made here, at the main thread's priority: a work thread making them on first use would pass
  // them its niceness, and the loop times every outbound call (a webhook's timeout).
  start_outbound_loop();
  Heartbeats::instance().start();
  // Before the database starts its writer threads.
  set_work_nice(o.work_nice);
  auto db = open_configured_database(global, /*confirm_heard_on_close=*/false);
  if (!db.ok()) return print_error(db.error());
  if (auto held = (*db)->hold_for_serving(); !held.ok()) return print_error(held.error());
  SecureRandom random;
  auto key = load_secret_key(o.workspace, global, (*db)->backend(), random);
  if (!key.ok()) return print_error(key.error());
  node.workspace.secret_key = std::move(*key);
  node.workspace.notion = notion_options(o.workspace);
  buffer_logging(o.log_flush_ms);
  raise_descriptor_limit();
  auto status = run_node(**db, node);
  if (!status.ok()) return print_error(status.error());
  return *status;
}
}  // namespace

void add_serve_command(CLI::App& app, GlobalOptions& global, CommandRun& run) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Run the HTTP(S) server");
  cmd->add_option("--listen", o->listen, "HOST:PORT to listen on (port 0 picks a free one)")
      ->envname("PARLEY_LISTEN")
      ->capture_default_str();
  cmd->add_option("--log-flush-ms", o->log_flush_ms,
                  "Write buffered log lines this often (warnings and errors at once); 0 writes "
                  "every line at once")
      ->envname("PARLEY_LOG_FLUSH_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--threads", o->node.threads,
                  "I/O threads (default: one per CPU the process may use: affinity mask and cgroup "
                  "CPU quota)")
      ->envname("PARLEY_THREADS");
  cmd->add_option("--max-connections", o->node.max_connections,
                  "Open connections before new ones get 503 (default: from the descriptor limit)")
      ->envname("PARLEY_MAX_CONNECTIONS");
  cmd->add_option("--blocking-threads", o->node.blocking_threads,
                  "Threads running handlers that block (writes, chat replies)")
      ->envname("PARLEY_BLOCKING_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--blocking-queue", o->node.blocking_queue,
                  "Requests that may wait for a blocking worker before new ones get 503")
      ->envname("PARLEY_BLOCKING_QUEUE")
      ->capture_default_str();
  cmd->add_option("--linger-ms", o->node.linger_ms,
                  "After an early error reply, read and drop the rest of the request this long at "
                  "most (0: off)")
      ->envname("PARLEY_LINGER_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option(
         "--linger-bytes", o->node.linger_bytes,
         "After an early error reply, read and drop this many bytes at most before closing")
      ->envname("PARLEY_LINGER_BYTES")
      ->capture_default_str();
  cmd->add_option("--idle-timeout-s", o->node.idle_timeout_s,
                  "Close a kept-alive connection idle this long")
      ->envname("PARLEY_IDLE_TIMEOUT_S")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--read-timeout-s", o->node.read_timeout_s,
                  "Close a connection that takes longer to send a request, or to take a response")
      ->envname("PARLEY_READ_TIMEOUT_S")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--tls-cert", o->node.tls_cert,
                  "PEM certificate chain; serves HTTPS with --tls-key")
      ->envname("PARLEY_TLS_CERT");
  cmd->add_option("--tls-key", o->node.tls_key, "PEM private key")->envname("PARLEY_TLS_KEY");
  cmd->add_option("--rate-limit-per-minute", o->node.rate_limit_per_minute,
                  "Requests per API key per minute")
      ->envname("PARLEY_RATE_LIMIT_PER_MINUTE")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--training-threads", o->node.training.threads, "Training workers")
      ->envname("PARLEY_TRAINING_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--knowledge-memory-mb", o->node.knowledge_memory_mb,
                  "Memory the agents' knowledge indexes may hold together, in MB; past it the "
                  "least recently asked agents' indexes leave memory and load again from their "
                  "stored form (default: a quarter of the machine's memory)")
      ->envname("PARLEY_KNOWLEDGE_MEMORY_MB")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--training-delay-ms", o->node.training.delay_ms,
                  "Pause before claiming and before finishing each source (tests watch the states)")
      ->envname("PARLEY_TRAINING_DELAY_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option(
         "--training-lease-ms", o->node.training.lease_ms,
         "How long a node's claim on a source being trained lasts unless it renews it; a source "
         "whose node died is trained by another once its claim ends")
      ->envname("PARLEY_TRAINING_LEASE_MS")
      ->check(CLI::Range(int64_t{1000}, int64_t{3'600'000}))
      ->capture_default_str();
  cmd->add_option("--console-session-hours", o->node.console_session_hours,
                  "Lifetime of a console login session")
      ->envname("PARLEY_CONSOLE_SESSION_HOURS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option(
         "--console-login-failures-per-email", o->node.console_login_failures_per_email,
         "Failed console logins per email from one client address before a 15-minute block "
         "of that email from that address")
      ->envname("PARLEY_CONSOLE_LOGIN_FAILURES_PER_EMAIL")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option(
         "--console-login-failures-per-email-all-addresses",
         o->node.console_login_failures_per_email_all_addresses,
         "Failed console logins per email from every address together before a 15-minute block "
         "of that email (a ceiling against guessing spread over many addresses)")
      ->envname("PARLEY_CONSOLE_LOGIN_FAILURES_PER_EMAIL_ALL_ADDRESSES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--console-login-failures-per-address",
                  o->node.console_login_failures_per_address,
                  "Failed console logins per client address before a 15-minute block")
      ->envname("PARLEY_CONSOLE_LOGIN_FAILURES_PER_ADDRESS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag(
         "--no-self-service-plans", o->node.no_self_service_plans,
         "Owners may not change their account's plan in the console (403); the operator sets "
         "plans with `parley admin account set-plan`")
      ->envname("PARLEY_NO_SELF_SERVICE_PLANS");
  cmd->add_option(
         "--console-login-tracked-max", o->node.console_login_tracked_max,
         "Emails (and, apart, addresses) the login throttle tracks at once; oldest evicted first")
      ->envname("PARLEY_CONSOLE_LOGIN_TRACKED_MAX")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--upload-max-bytes", o->node.file_upload_max_bytes,
                  "Largest request body of a file upload to an agent's knowledge (413 beyond)")
      ->envname("PARLEY_UPLOAD_MAX_BYTES")
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--contact-import-max-bytes", o->node.contact_import_max_bytes,
                  "Largest request body of a contact CSV import (413 beyond)")
      ->envname("PARLEY_CONTACT_IMPORT_MAX_BYTES")
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30))
      ->capture_default_str();
  cmd->add_option(
         "--large-bodies-max-bytes", o->node.large_body_budget,
         "Bytes of request bodies larger than 1 MiB (uploads, imports) held at once; past it "
         "such a request gets 503 before its body is read")
      ->envname("PARLEY_LARGE_BODIES_MAX_BYTES")
      ->check(CLI::Range(size_t{1} << 20, size_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--contact-import-max-rows", o->node.contact_import_max_rows,
                  "Most rows one contact import may hold (400 beyond, nothing imported)")
      ->envname("PARLEY_CONTACT_IMPORT_MAX_ROWS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  add_webhook_serve_options(*cmd, o->node.webhooks);
  add_crawl_serve_options(*cmd, o->crawl);
  add_llm_serve_options(*cmd, o->llm);
  add_workspace_serve_options(*cmd, o->workspace);
  cmd->add_option("--chat-timeout-ms", o->node.chat.timeout_ms,
                  "A chat reply taking longer ends with 504 timeout")
      ->envname("PARLEY_CHAT_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--chat-heartbeat-ms", o->node.chat.event_stream_heartbeat_ms,
                  "An event-stream chat reply silent this long gets a comment line")
      ->envname("PARLEY_CHAT_HEARTBEAT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--agent-replies-per-hour", o->node.chat.replies_per_agent_hour,
                  "Replies per agent per hour before 429 agent_busy")
      ->envname("PARLEY_AGENT_REPLIES_PER_HOUR")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-messages-per-conversation", o->node.chat.max_messages_per_conversation,
                  "Messages a conversation stores; a turn past it gets 409 conflict")
      ->envname("PARLEY_MAX_MESSAGES_PER_CONVERSATION")
      ->check(CLI::Range(int64_t{2}, int64_t{1'000'000}))
      ->capture_default_str();
  cmd->add_option(
         "--web-dir", o->node.web_dir,
         "Serve the dashboard and widget from this folder (web/build.mjs's output) instead of the "
         "copy built into the binary; for working on them")
      ->envname("PARLEY_WEB_DIR");
  cmd->add_option(
         "--country-header", o->node.widget.country_header,
         "Trusted request header holding the widget visitor's country code (off when empty)")
      ->envname("PARLEY_COUNTRY_HEADER");
  cmd->add_option(
         "--client-address-header", o->node.widget.client_address.header,
         "Trusted request header holding the client's address, e.g. X-Forwarded-For "
         "(its last entry), believed only from --trusted-proxies; empty: the peer's address")
      ->envname("PARLEY_CLIENT_ADDRESS_HEADER");
  cmd->add_option(
         "--trusted-proxies", o->node.widget.client_address.trusted_proxies,
         "Address blocks (CIDR, comma-separated) whose --client-address-header is believed")
      ->envname("PARLEY_TRUSTED_PROXIES")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option(
         "--client-ipv6-prefix", o->node.widget.client_address.ipv6_prefix,
         "IPv6 clients are counted by per-address limits as one per network of this many bits "
         "(128: each address alone)")
      ->envname("PARLEY_CLIENT_IPV6_PREFIX")
      ->check(CLI::Range(1, 128))
      ->capture_default_str();
  struct WidgetLimitOption {
    const char* flag;
    const char* env;
    int64_t* value;
    const char* help;
  };
  for (const auto& w : std::initializer_list<WidgetLimitOption>{
           {"--widget-requests-per-minute-per-address",
            "PARLEY_WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS",
            &o->node.widget.requests_per_minute_per_address,
            "Widget requests per client address per minute"},
           {"--widget-messages-per-minute-per-address",
            "PARLEY_WIDGET_MESSAGES_PER_MINUTE_PER_ADDRESS",
            &o->node.widget.messages_per_minute_per_address,
            "Widget chat messages per client address per minute"},
           {"--widget-visitors-per-address", "PARLEY_WIDGET_VISITORS_PER_ADDRESS",
            &o->node.widget.visitors_per_address,
            "How many times an agent's messagesPerVisitor one client address may use in a day"},
           {"--widget-records-per-conversation-per-hour",
            "PARLEY_WIDGET_RECORDS_PER_CONVERSATION_PER_HOUR",
            &o->node.widget.records_per_conversation_per_hour,
            "Forms, bookings, return requests and contact details per widget conversation per "
            "hour"},
           {"--widget-record-max-bytes", "PARLEY_WIDGET_RECORD_MAX_BYTES",
            &o->node.widget.record_max_bytes,
            "Bytes of JSON in a widget form's fields or a contact's customFields"},
           {"--widget-contacts-per-hour-per-address", "PARLEY_WIDGET_CONTACTS_PER_HOUR_PER_ADDRESS",
            &o->node.widget.contacts_per_hour_per_address,
            "Widget contact details per client address per hour"},
           {"--widget-contacts-per-hour-per-agent", "PARLEY_WIDGET_CONTACTS_PER_HOUR_PER_AGENT",
            &o->node.widget.contacts_per_hour_per_agent,
            "Widget contact details per agent per hour"}}) {
    cmd->add_option(w.flag, *w.value, w.help)
        ->envname(w.env)
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
  }
  cmd->add_option("--retention-interval-ms", o->node.retention.interval_ms,
                  "How often the node deletes conversations past their account's retention "
                  "(one node at a time)")
      ->envname("PARLEY_RETENTION_INTERVAL_MS")
      ->check(CLI::Range(int64_t{100}, int64_t{86'400'000}))
      ->capture_default_str();
  cmd->add_option("--retention-batch", o->node.retention.batch,
                  "Conversations the retention purge deletes per transaction")
      ->envname("PARLEY_RETENTION_BATCH")
      ->check(CLI::Range(int64_t{1}, int64_t{10'000}))
      ->capture_default_str();
  cmd->add_option("--work-nice", o->work_nice,
                  "Niceness of the threads that write and reply (0-19), above the I/O threads that "
                  "answer reads from memory, so reads keep the cores during write storms; 0: equal")
      ->envname("PARLEY_WORK_NICE")
      ->check(CLI::Range(0, 19))
      ->capture_default_str();
  cmd->add_option(
         "--reply-threads", o->node.reply_threads,
         "Threads running the built-in engine, prompts and the steps of replies that block")
      ->envname("PARLEY_REPLY_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--concurrent-replies", o->node.chat_slots.total,
                  "Replies the server may be writing at once (503 past it)")
      ->envname("PARLEY_CONCURRENT_REPLIES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--agent-concurrent-replies", o->node.chat_slots.per_agent,
                  "Replies one agent's engine may write at once before 429 agent_busy")
      ->envname("PARLEY_AGENT_CONCURRENT_REPLIES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--account-concurrent-replies", o->node.chat_slots.per_account,
                  "Replies the agents of one account may write at once before 429 agent_busy")
      ->envname("PARLEY_ACCOUNT_CONCURRENT_REPLIES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--engine-delay-ms", o->node.engine_delay_ms,
                  "Test only: the retrieval engine waits this long before each reply")
      ->envname("PARLEY_ENGINE_DELAY_MS")
      ->check(CLI::NonNegativeNumber);
  // Left out of --help (an empty group): it exists only for the end-to-end tests.
  cmd->add_option(
         "--test-clock-file", o->node.test_clock_file,
         "Tests only: a file holding milliseconds added to the clock (loopback --listen only)")
      ->envname("PARLEY_TEST_CLOCK_FILE")
      ->group("");
  cmd->callback([&global, &run, o] { run = [&global, o] { return serve(global, *o); }; });
}

namespace {
struct CopyOptions {
  std::string from;
  std::string to;
};

// `parley migrate --from URL --to URL`: both migrated to the current schema, then every table
// copied and counted on both sides.
int copy_between(const GlobalOptions& global, const CopyOptions& o) {
  auto open_url = [&](const std::string& url) {
    return open_database(
        {.url = url, .durability = Durability::kFull, .pool_size = global.database_pool});
  };
  auto from = open_url(o.from);
  if (!from.ok()) return print_error(from.error());
  auto to = open_url(o.to);
  if (!to.ok()) return print_error(to.error());
  auto copies = copy_installation(**from, **to);
  if (!copies.ok()) return print_error(copies.error());
  JsonWriter w;
  w.begin_object().key("migrated").boolean(true).key("tables").begin_array();
  bool verified = true;
  for (const auto& c : *copies) {
    w.begin_object().key("table").string(c.table).key("rows").integer(c.rows_read);
    w.key("rowsInTarget").integer(c.rows_counted).end_object();
    verified = verified && c.rows_read == c.rows_counted;
  }
  w.end_array().key("verified").boolean(verified).end_object();
  print_json(w.str());
  return verified ? 0 : 1;
}
}  // namespace

void add_migrate_command(CLI::App& app, GlobalOptions& global, CommandRun& run) {
  auto* cmd = app.add_subcommand(
      "migrate",
      "Apply pending schema migrations and exit; with --from and --to, copy a whole installation");
  auto copy = std::make_shared<CopyOptions>();
  auto* from = cmd->add_option("--from", copy->from,
                               "Database to copy from (sqlite:PATH or postgresql://...)");
  auto* to = cmd->add_option("--to", copy->to,
                             "Empty database to copy into (postgresql://... or sqlite:PATH)");
  from->needs(to);
  to->needs(from);
  cmd->callback([&global, &run, copy] {
    run = [&global, copy] {
      if (!copy->from.empty()) return copy_between(global, *copy);
      auto db = open_configured_database(global);
      if (!db.ok()) return print_error(db.error());
      print_json(R"({"migrated":true})");
      return 0;
    };
  });
}

}  // namespace parley
