#include "server/node.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <thread>

#include "api/key_cache.h"
#include "console/console_services.h"
#include "core/child_process.h"
#include "core/cpu_count.h"
#include "core/log.h"
#include "core/random.h"
#include "domain/account_cache.h"
#include "domain/agent_cache.h"
#include "domain/rate_limiter.h"
#include "domain/widget_identity.h"
#include "domain/workspace.h"
#include "engine/engine_router.h"
#include "engine/llm_check.h"
#include "engine/openai_engine.h"
#include "engine/retrieval_engine.h"
#include "http/responses.h"
#include "http/server.h"
#include "knowledge/knowledge_index.h"
#include "knowledge/vector_index.h"
#include "net/outbound.h"
#include "server/knowledge_metrics.h"
#include "server/routes.h"
#include "store/rate_window_repo.h"
#include "views/change_feed.h"
#include "widget/widget_limits.h"
#include "workers/audit_purger.h"
#include "workers/figure_sweeper.h"
#include "workers/idempotency_purger.h"
#include "workers/queue_gauges.h"
#include "workers/rate_window_writer.h"
#include "workers/refresh_scheduler.h"
#include "workers/retention_worker.h"
#include "workers/workspace_importer.h"
#include "workspace/notion_client.h"

namespace parley {

namespace {

ServerOptions server_options(const NodeOptions& o) {
  ServerOptions so;
  so.host = o.host;
  so.port = o.port;
  so.io_threads = o.threads != 0 ? o.threads : usable_cpu_count();
  so.max_connections = o.max_connections != 0 ? o.max_connections : default_max_connections();
  so.blocking_threads = o.blocking_threads;
  so.blocking_queue = o.blocking_queue;
  so.linger_ms = o.linger_ms;
  so.linger_bytes = o.linger_bytes;
  so.large_body_budget = o.large_body_budget;
  so.idle_timeout_s = o.idle_timeout_s;
  so.read_timeout_s = o.read_timeout_s;
  so.tls_cert_file = o.tls_cert;
  so.metrics_token = o.metrics_token;
  so.tls_key_file = o.tls_key;
  return so;
}

ServerHooks server_hooks(FastRandom& request_ids) {
  ServerHooks hooks;
  hooks.on_error = [](const ApiError& e, Request&) { return error_response(e); };
  hooks.new_request_id = [&request_ids](std::string& id) {
    id.append("req_");
    append_random_base62(request_ids, 22, id);
  };
  hooks.on_logged = [](const RequestLog& l) {
    log_info("request", {{"method", l.method},
                         {"path", l.path},
                         {"status", int64_t{l.status}},
                         {"ms", l.duration_ms},
                         {"requestId", l.request_id},
                         {"remote", l.remote}});
  };
  return hooks;
}

ConsoleOptions console_options(const NodeOptions& o) {
  ConsoleOptions c;
  c.session_ttl_ms = o.console_session_hours * 60 * 60 * 1000;
  c.login.failures_per_email = o.console_login_failures_per_email;
  c.login.failures_per_address = o.console_login_failures_per_address;
  c.login.max_subjects = o.console_login_tracked_max;
  c.login.failures_per_email_all_addresses = o.console_login_failures_per_email_all_addresses;
  c.client_address = o.widget.client_address;
  c.self_service_plans = !o.no_self_service_plans;
  c.file_upload_max_bytes = o.file_upload_max_bytes;
  c.contact_import_max_bytes = o.contact_import_max_bytes;
  c.contact_import_max_rows = o.contact_import_max_rows;
  return c;
}

}  // namespace

Result<void> check_node_options(const NodeOptions& o) {
  // Handlers wait for engines, at most one per reply thread: fewer reply threads than handler
  // threads keeps handler threads free for every other request whatever the engines do.
  if (o.reply_threads >= o.blocking_threads) {
    return ApiError::invalid("--reply-threads must be below " + std::to_string(o.blocking_threads) +
                             ", the request handlers' threads");
  }
  if (auto client = ClientAddress::make(o.widget.client_address); !client.ok()) {
    return ApiError::invalid("--trusted-proxies or --client-ipv6-prefix: " +
                             client.error().message);
  }
  return {};
}

Result<int> run_node(Database& database, const NodeOptions& o) {
  PARLEY_TRY(check_node_options(o));
#if defined(__GLIBC__)
  // Indexes leave memory as often as others load (--knowledge-memory-mb): their large arrays are
  // given their own pages, returned to the system when freed. Left to itself glibc raises this
  // threshold to the largest block ever freed, after which such arrays come from the heap and
  // the freed ones stay in the process as fragments.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  // Pinning that threshold also pins the trim threshold at glibc's 128 KB, and a heap gives its
  // top back to the system whenever more than that is free there. SQLite allocates and frees
  // ~100 KB of page cache for each statement that needs a temporary table (RETURNING does), so a
  // chat turn shrank and regrew a heap two or three times, and faulted the pages in again each
  // time: 7% of the server's CPU under the chat bench. A heap now keeps up to 4 MB free at its
  // top; the main heap grows 1 MB at a time and a trimmed heap keeps 1 MB. Evicted indexes'
  // large arrays have their own pages, and malloc_trim gives back what the heaps hold free.
  mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024);
  mallopt(M_TOP_PAD, 1024 * 1024);
  // glibc gives up to eight heaps (arenas) per core to a process's threads, and a node has more
  // than a hundred: the small blocks a loaded index leaves behind are then spread over a dozen
  // heaps, each keeping its own free fragments. One heap per usable core (at least two) is as many
  // as can allocate at once; measured, RSS over the knowledge budget fell by a third.
  mallopt(M_ARENA_MAX, static_cast<int>(std::max<size_t>(2, usable_cpu_count())));
#endif
  // Refuses to start rather than fail at the first import when tokens cannot be opened here.
  PARLEY_TRY(check_workspace_secrets(database, o.workspace.secret_key.get()));
  PARLEY_TRY(check_identity_secrets(database, o.workspace.secret_key.get()));
  PARLEY_ASSIGN_OR_RETURN(auto chosen_clock, serve_clock(o.test_clock_file, o.host));
  const Clock& clock = *chosen_clock;
  SecureRandom random;
  KeyCache keys(database, clock);
  RateLimiter limiter(clock, o.rate_limit_per_minute,
                      database.shared_by_nodes() ? &database : nullptr);
  auto reader = database.read();
  auto windows = reader.ok() ? RateWindowRepo::current(*reader, clock.now_ms())
                             : Result<std::vector<RateWindow>>(reader.error());
  if (windows.ok())
    for (const auto& w : *windows) limiter.restore(w);
  double memory_mb = o.knowledge_memory_mb > 0
                         ? o.knowledge_memory_mb
                         : static_cast<double>(default_knowledge_memory_mb());
  // One budget for what agents' knowledge holds in memory: their BM25 indexes and their embedding
  // vectors together.
  MemoryBudget knowledge_memory(static_cast<size_t>(memory_mb * 1024 * 1024));
  KnowledgeIndex knowledge(database, &knowledge_memory, &clock);
  VectorIndex vectors(database, &knowledge_memory);
  // Before the trainer, whose workers use them: the provider guard and the embedder.
  SystemResolver action_resolver;
  ApiActionCaller actions(action_resolver, o.actions);
  SourceEmbedder embedder(database, clock, o.llm, &actions, vectors);
  TrainerOptions training = o.training;
  training.requeue_on_start = database.backend() == "sqlite";
  Trainer trainer(Services{database, clock, random}, knowledge, training, &embedder);
  SystemResolver notion_resolver;
  NotionSender notion_sender(notion_resolver, o.workspace.notion.operator_url);
  WorkspaceServices workspace{o.workspace.secret_key.get(), &notion_sender, o.workspace.notion, {}};
  WorkspaceImporterOptions importing = o.workspace.importer;
  importing.requeue_on_start = database.backend() == "sqlite";
  WorkspaceImporter importer(Services{database, clock, random}, workspace, &trainer, importing);
  workspace.pages_queued = [&importer] { importer.pages_queued(); };
  SystemResolver crawl_resolver;
  Crawler crawler(Services{database, clock, random}, o.crawler, crawl_resolver, &trainer);
  CrawlDesk crawl_desk{o.crawl, crawl_resolver, &crawler};
  ConsoleServices console(clock, console_options(o),
                          database.shared_by_nodes() ? &database : nullptr);
  RetrievalOptions retrieval;
  retrieval.delay_ms = o.engine_delay_ms;
  RetrievalEngine engine(clock, retrieval);
  Mailer mailer(o.mail);
  ChatSlots chat_slots(o.chat_slots);  // before the pool: engines still running hold its slots
  ThreadPool reply_pool(o.reply_threads);
  ToolRunOptions tools = o.tools;
  tools.agent.secret_box = o.workspace.secret_key.get();  // opens the tool secrets it sealed
  OpenAiEngine openai(clock, o.llm, &actions, &vectors, &reply_pool, tools);
  EngineRouter engines(clock, engine, openai);
  AgentCache agent_cache(database);
  AccountCache account_cache(database);
  auto webhooks = WebhookService::create(database, clock, random, o.webhooks, &mailer);
  if (!webhooks.ok()) return webhooks.error();
  WidgetLimits widget_limits(clock, o.widget, database.shared_by_nodes() ? &database : nullptr);

  ChatServices chat{database, clock, random, engines, knowledge, o.chat};
  // UsageCounts needs every count to go through this process and only to grow: true where the
  // database is not shared (one process serves a SQLite file), which is also where no plan
  // message is held ahead and given back (domain/plan_message_hold.h), the one write that lowers
  // a count.
  if (!database.shared_by_nodes()) chat.usage = std::make_shared<UsageCounts>();
  chat.mailer = &mailer;
  chat.slots = &chat_slots;
  chat.agents = &agent_cache;
  chat.accounts = &account_cache;
  ReplyMetrics reply_metrics;
  chat.metrics = &reply_metrics;
  WebhookPolicy* policy = &(*webhooks)->policy();
  // The live-chat inbox and the widget's live chat: looked at when the data epoch moves.
  ChangeFeed::Options feed_options;
  feed_options.changes = [&database] { return database.data_epoch(); };
  ChangeFeed feed(std::move(feed_options));
  Fronts fronts{
      ApiContext{database, clock, random, keys, limiter, trainer, reply_pool, chat, policy,
                 &agent_cache, &console.client_address},
      ConsoleContext{database, clock, random, console, policy, &trainer, &chat, &reply_pool, &feed,
                     &workspace, &crawl_desk},
      WidgetContext{database, clock, random, reply_pool, chat, o.widget, &widget_limits, &feed}};
  fronts.console.secret_box = o.workspace.secret_key.get();
  const LlmCheckOptions llm_check{o.llm, &actions};
  fronts.console.llm_check = &llm_check;
  fronts.widget.secret_box = o.workspace.secret_key.get();
  Router router;
  register_routes(router, fronts, o.web_dir);

  ServerOptions so = server_options(o);
  FastRandom request_ids(random);
  try {
    ServerHooks hooks = server_hooks(request_ids);
    // Read before the node says it is listening, then every five seconds.
    QueueGauges queue_gauges(database, clock);
    hooks.more_metrics = [&chat_slots, &feed, &crawler, &reply_metrics, &queue_gauges, &knowledge,
                          &vectors, &agent_cache](std::string& out) {
      reply_metrics.write(out);
      write_knowledge_metrics(knowledge.figures(), vectors.figures(), out);
      out +=
          "# HELP parley_agent_cache_loads_total Agents the agent cache read from the database.\n";
      out += "# TYPE parley_agent_cache_loads_total counter\n";
      out += "parley_agent_cache_loads_total " + std::to_string(agent_cache.loads()) + "\n";
      queue_gauges.write(out);
      out +=
          "# HELP parley_event_streams_open Live-chat event streams open (the console's inbox, the "
          "widget's live chat).\n";
      out += "# TYPE parley_event_streams_open gauge\n";
      out += "parley_event_streams_open " + std::to_string(feed.open_streams()) + "\n";
      out +=
          "# HELP parley_replies_in_flight Chat replies being written now (engine slots taken).\n";
      out += "# TYPE parley_replies_in_flight gauge\n";
      out += "parley_replies_in_flight " + std::to_string(chat_slots.in_flight()) + "\n";
      out +=
          "# HELP parley_outbound_transfers_in_flight Outbound HTTP and mail transfers under way "
          "on the outbound loop.\n";
      out += "# TYPE parley_outbound_transfers_in_flight gauge\n";
      out += "parley_outbound_transfers_in_flight " + std::to_string(transfers_in_flight()) + "\n";
      out += "# HELP parley_crawl_pages_fetched_total Pages the website crawler requested.\n";
      out += "# TYPE parley_crawl_pages_fetched_total counter\n";
      out += "parley_crawl_pages_fetched_total " + std::to_string(crawler.pages_fetched()) + "\n";
    };
    // Purges once before the node says it is listening, then every ten minutes.
    IdempotencyPurger idempotency_purger(database, clock);
    // Audit entries older than a year: once before listening, then every six hours.
    AuditPurger audit_purger(database, clock);
    // Conversations past their account's retention, one node at a time (a lease row).
    RetentionWorker retention_worker(Services{database, clock, random}, o.retention);
    // Open event streams end when shutdown begins instead of holding it for its grace period.
    hooks.on_draining = [&feed] { feed.request_stop(); };
    // A request still reading a document when the grace period ends does not hold the stop.
    hooks.on_grace_spent = [] { stop_child_processes(); };
    HttpServer server(so, router, std::move(hooks));
    // The streams end while the server that answers them exists, however this block is left.
    struct StopFeed {
      ChangeFeed& feed;
      ~StopFeed() { feed.stop(); }
    } stop_feed{feed};
    uint16_t port = server.listen();
    bool tls = !o.tls_cert.empty();
    std::string address = (so.host.find(':') != std::string::npos ? "[" + so.host + "]" : so.host) +
                          ":" + std::to_string(port);
    log_info("listening", {{"address", std::string_view(address)},
                           {"tls", tls},
                           {"database", database.backend()},
                           {"rateLimitPerMinute", o.rate_limit_per_minute},
                           {"ioThreads", static_cast<int64_t>(so.io_threads)},
                           {"maxConnections", static_cast<int64_t>(so.max_connections)}});
    flush_logs();
    if (!tls)
      log_warn("serving plain HTTP; put a TLS proxy in front or pass --tls-cert and --tls-key");
    RateWindowWriter window_writer(database, limiter);
    FigureSweeper figure_sweeper(Services{database, clock, random});
    trainer.start();
    importer.start();
    crawler.start();
    RefreshScheduler refresh_scheduler(Services{database, clock, random}, o.crawl, &crawler,
                                       o.crawler.refresh_check_ms);
    (*webhooks)->start();
    server.run();
    // Replies still waiting on providers (their clients were answered 504, or left) end now,
    // while the services they use are still here.
    cancel_transfers();
    // Documents being read in child processes (extract/isolated_reader.h) end now too.
    stop_child_processes();
    for (int i = 0; i < 500 && chat_slots.in_flight() > 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    // A reply's last steps (storing it) run on the reply pool after its engine slot is given
    // back: they end here, and queue their writes before the wait below.
    reply_pool.finish();
    (*webhooks)->stop();
    // The writes still queued run now, while what their callbacks reach (the chat services, the
    // caches, the metrics) is here. The workers still running (training, crawling) write and wait
    // on their own threads, and stop with them.
    database.wait_for_queued_writes();
    log_info("stopped");
    flush_logs();
  } catch (const std::exception& e) {
    log_error("server failed", {{"error", std::string_view(e.what())}});
    return 1;
  }
  return 0;
}

}  // namespace parley
