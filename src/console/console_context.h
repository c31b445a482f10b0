// What the console's handlers are given (/console/v1): the database, clock and randomness, the
// console's long-lived state (console_services.h) and the URL policy for webhook subscriptions.
// Built once by the server (src/server) and shared by every handler thread.
#pragma once

#include "console/console_services.h"
#include "core/clock.h"
#include "core/random.h"
#include "store/db.h"

namespace parley {

struct CrawlDesk;
struct WebhookPolicy;
struct ChatServices;
struct LlmCheckOptions;
class ChangeFeed;
class SecretBox;
class SourceListener;
class ThreadPool;
struct WorkspaceServices;

struct ConsoleContext {
  Database& db;
  const Clock& clock;
  Random& random;
  ConsoleServices& console;
  WebhookPolicy* webhook_policy = nullptr;    // URL checks for subscriptions
  SourceListener* source_listener = nullptr;  // the trainer hears of source changes
  ChatServices* chat = nullptr;               // the "try it" chat: the same flow as the widget's
  ThreadPool* reply_pool = nullptr;
  ChangeFeed* feed = nullptr;              // the live-chat inbox stream (views/change_feed.h)
  WorkspaceServices* workspace = nullptr;  // Notion connections and page imports
  CrawlDesk* crawls = nullptr;             // website crawls: settings, guard, the crawler
  const SecretBox* secret_box = nullptr;   // seals agents' identity secrets; null: refused
  const LlmCheckOptions* llm_check = nullptr;  // "Test connection" of an agent's LLM; null: off
};

}  // namespace parley
