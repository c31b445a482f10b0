// What the public API's handlers are given: the services of the running server, and for each
// request the call (request, authenticated key, path parameters). Handlers return Result<Response>;
// an ApiError becomes the spec's error body with its status in one place (http/responses.h).
#pragma once

#include <functional>
#include <string_view>

#include "api/key_cache.h"
#include "core/clock.h"
#include "core/random.h"
#include "core/thread_pool.h"
#include "domain/audit_step.h"
#include "domain/chat.h"
#include "domain/rate_limiter.h"
#include "engine/reply_engine.h"
#include "http/client_address.h"
#include "http/router.h"
#include "knowledge/retriever.h"
#include "knowledge/source_listener.h"
#include "store/db.h"

namespace parley {

struct WebhookPolicy;
class AgentCache;

// Built once by the server (src/server) and shared by every API handler thread.
struct ApiContext {
  Database& db;
  const Clock& clock;
  Random& random;
  KeyCache& keys;
  RateLimiter& limiter;
  SourceListener& source_listener;  // the trainer and the index hear of source changes
  ThreadPool& reply_pool;           // computes replies; nothing waits on it (domain/chat_runner.h)
  ChatServices chat;                // engine, knowledge, limits and hand-off mailer for chat turns
  WebhookPolicy* webhook_policy = nullptr;        // URL checks for subscriptions
  AgentCache* agent_cache = nullptr;              // GET /api/v1/agents/{agentId}
  const ClientAddress* client_address = nullptr;  // who a request comes from (the audit log)
};

struct ApiCall {
  Request& req;
  const KeyEntry& key;
  ApiContext& app;
  // The audit step's database on a route whose changes are recorded (api/audited_call.h).
  Database* audited_db = nullptr;

  std::string_view param(size_t i) const { return req.params.at(i); }
  // The database a handler writes through: the audited one on an audited route.
  Database& db() const { return audited_db != nullptr ? *audited_db : app.db; }
  const std::string& account_id() const { return key.account_id; }
};

// The account's agent with its settings read: from the agent cache when the node has one (as fresh
// as the database, domain/agent_cache.h), else from the database. 404 not_found otherwise.
Result<std::shared_ptr<const LoadedAgent>> account_agent(ApiContext& app,
                                                         std::string_view account_id,
                                                         std::string_view agent_id);

// For endpoints that need a second scope beside the route's (list events): 403
// insufficient_scope naming it when the key lacks it.
Result<void> require_scope(const ApiCall& call, Scope scope);

using ApiHandler = std::function<Result<Response>(ApiCall&)>;

// Registers a route of the public API behind the gate chain: key (401) → rate limit (429, and
// the X-RateLimit-* headers on every later response) → plan (403 plan_required) → scope (403
// insufficient_scope) → handler.
void add_api_route(Router& router, ApiContext& app, std::string_view method,
                   std::string_view pattern, Scope scope, Execution execution, ApiHandler handler);
// The same gate chain without the scope check: any valid key passes, and the handler checks the
// scope of what it does (POST /mcp, whose tools each need their own).
void add_api_route_any_scope(Router& router, ApiContext& app, std::string_view method,
                             std::string_view pattern, Execution execution, ApiHandler handler);
// The same for a route whose changes the audit log records, as the key that made them; the
// handler writes through ApiCall::db().
void add_api_route(Router& router, ApiContext& app, std::string_view method,
                   std::string_view pattern, Scope scope, Execution execution, ApiHandler handler,
                   RouteAudit audit);

// Writes an error response: the spec's shape (http/responses.h error_response) on /api/v1; the
// OpenAI-compatible front writes OpenAI's (api/openai_errors.h). Headers such as Retry-After and
// WWW-Authenticate are its to add.
using ErrorWriter = Response (*)(const ApiError& error);
// The same chain for a route of another protocol that answers every error, the gates' included,
// through `write_error`.
void add_api_route(Router& router, ApiContext& app, std::string_view method,
                   std::string_view pattern, Scope scope, Execution execution, ApiHandler handler,
                   ErrorWriter write_error);

}  // namespace parley
