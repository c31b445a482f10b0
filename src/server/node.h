// One server node: the composition root that builds every service of `parley serve` (caches, rate
// limiter, knowledge index, reply engines, chat slots, webhook delivery, training), gives each
// front its context, and runs the HTTP server until it is stopped (SIGINT/SIGTERM). The CLI parses
// the options; everything that wires the running server together is here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "domain/chat.h"
#include "domain/chat_slots.h"
#include "engine/api_actions.h"
#include "engine/openai_engine.h"
#include "engine/mailer.h"
#include "engine/openai_client.h"
#include "store/db.h"
#include "widget/widget_options.h"
#include "workers/crawler.h"
#include "workers/retention_worker.h"
#include "workers/trainer.h"
#include "workers/webhook_service.h"
#include "workers/workspace_importer.h"

namespace parley {

// Workspace pages (domain/workspace.h): the key that seals tokens, Notion's address, the worker.
struct WorkspaceNodeOptions {
  std::shared_ptr<const SecretBox> secret_key;  // null: connecting a workspace is refused
  NotionOptions notion;
  WorkspaceImporterOptions importer;
};

struct NodeOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;  // 0 picks a free one
  size_t threads = 0;    // I/O threads; 0: one per usable CPU
  int idle_timeout_s = 60;
  int read_timeout_s = 30;
  std::string tls_cert;
  std::string tls_key;
  std::string metrics_token;  // empty: /metrics open to whoever reaches the listener
  int64_t rate_limit_per_minute = 60;
  TrainerOptions training;
  // What the loaded knowledge indexes may hold together, in MB; 0: the default (a quarter of the
  // machine's memory, knowledge/knowledge_index.h).
  double knowledge_memory_mb = 0;
  CrawlSettings crawl;     // caps of website crawls
  CrawlerOptions crawler;  // the crawl workers: politeness, fetch limits, lease
  int64_t console_session_hours = 12;
  int64_t console_login_failures_per_email = 5;
  int64_t console_login_failures_per_address = 50;
  int64_t console_login_failures_per_email_all_addresses = 100;
  int64_t console_login_tracked_max = 100'000;
  bool no_self_service_plans = false;  // owners may not change their plan in the console
  size_t file_upload_max_bytes = 25 * 1024 * 1024;
  size_t contact_import_max_bytes = 64 * 1024 * 1024;
  int64_t contact_import_max_rows = 200'000;
  WebhookServiceOptions webhooks;
  LlmDefaults llm;     // the default provider of `openai` agents, secrets included
  MailerOptions mail;  // hand-off mail and disabled-webhook notices, secrets included
  ApiActionOptions actions;
  ToolRunOptions tools;  // the agents' MCP servers and web search (its key: workspace's)
  ChatConfig chat;
  WidgetOptions widget;
  int64_t engine_delay_ms = 0;
  size_t reply_threads = 32;
  ChatSlotLimits chat_slots;
  WorkspaceNodeOptions workspace;
  RetentionOptions retention;  // the purge of conversations past their account's retention
  size_t max_connections = 0;  // 0: from the descriptor limit
  size_t blocking_threads = 64;
  size_t blocking_queue = 16384;
  int linger_ms = 5000;
  size_t linger_bytes = 4 * 1024 * 1024;
  size_t large_body_budget = 512 * 1024 * 1024;  // bodies past 1 MiB held at once (uploads)
  std::string web_dir;  // serve the dashboard and widget from this folder instead of the binary
  std::string test_clock_file;  // tests only: see core/clock.h OffsetFileClock
};

// Checks the options that depend on each other; the error names the option to change.
Result<void> check_node_options(const NodeOptions& o);

// Runs the node on `db` until it is stopped and returns the process's exit status; an error when
// the node could not start (options that contradict each other, a webhook setting that fails).
Result<int> run_node(Database& db, const NodeOptions& o);

}  // namespace parley
