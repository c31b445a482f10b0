// The gate chain in front of every public API route (see api/api_context.h).
#include <optional>
#include <string>

#include "api/api_context.h"
#include "api/audited_call.h"
#include "api/idempotency.h"
#include "http/responses.h"

namespace parley {

namespace {
void add_rate_headers(Response& r, const RateDecision& d) {
  r.headers.reserve(r.headers.size() + 3);
  r.header("X-RateLimit-Limit", std::to_string(d.limit));
  r.header("X-RateLimit-Remaining", std::to_string(d.remaining));
  r.header("X-RateLimit-Reset", std::to_string(d.reset_unix_s));
}

// The presented key, or the 401 explaining why there is none.
Result<std::string_view> bearer_key(const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(std::string_view key, bearer_credentials(req, "API key"));
  if (!is_well_formed_key(key))
    return ApiError{ErrorCode::kUnauthorized, "The API key is malformed."};
  return key;
}

// The chain for one request. On an I/O thread (`may_wait` false) it answers only what memory
// answers: when the key cache must reload, an unknown key must be looked up, or the rate count
// needs the database, the whole chain starts again on the blocking pool, so that a slow or
// locked database never stalls a thread that serves every connection (/healthz included).
// `scope` empty: any scope will do (the handler checks what it needs, as /mcp does per tool).
Response run_chain(ApiContext& app, std::optional<Scope> scope, const ApiHandler& handler,
                   Request& req, bool may_wait, const RouteAudit* audit, ErrorWriter write_error) {
  auto again_on_pool = [&app, scope, &handler, &req, audit, write_error] {
    return Response::on_pool([&app, scope, &handler, &req, audit, write_error] {
      Response r = run_chain(app, scope, handler, req, /*may_wait=*/true, audit, write_error);
      // A handler that would move to the pool from the I/O thread is already there.
      if (r.finish_on_pool) {
        Response rest = r.finish_on_pool();
        for (auto& h : r.headers) rest.headers.push_back(std::move(h));
        r = std::move(rest);
      }
      return r;
    });
  };
  auto key = bearer_key(req);
  if (!key.ok()) return write_error(key.error());
  std::shared_ptr<const KeyEntry> entry;
  if (may_wait) {
    auto found = app.keys.find(*key);
    if (!found.ok()) return write_error(found.error());
    entry = std::move(*found);
  } else {
    auto found = app.keys.find_without_waiting(*key);
    if (!found) return again_on_pool();
    entry = std::move(*found);
  }
  if (!entry) {
    return write_error({ErrorCode::kUnauthorized, "The API key is unknown or has been revoked."});
  }
  RateDecision rate{};
  if (may_wait) {
    rate = app.limiter.hit(entry->key_id);
  } else if (auto counted = app.limiter.hit_without_waiting(entry->key_id)) {
    rate = *counted;
  } else {
    return again_on_pool();
  }
  Response r;
  if (!rate.allowed) {
    std::string message;
    message.reserve(96);
    message.append("Rate limit of ").append(std::to_string(rate.limit));
    message.append(" requests per minute exceeded; retry in ");
    message.append(std::to_string(rate.retry_after_s)).append(" seconds.");
    r = write_error({ErrorCode::kRateLimited, std::move(message), rate.retry_after_s});
  } else {
    app.keys.record_use(*entry);
    if (entry->plan == Plan::kFree) {
      r = write_error({ErrorCode::kPlanRequired,
                       "The API is not included in the Free plan; upgrade to Starter or higher."});
    } else if (scope && !entry->allows(*scope)) {
      r = write_error({ErrorCode::kInsufficientScope, "This API key lacks the '" +
                                                          std::string(scope_name(*scope)) +
                                                          "' scope needed by this endpoint."});
    } else if (auto started = idempotency_start(app.db, app.clock, req, entry->account_id);
               started.answer) {
      r = std::move(*started.answer);
    } else {
      if (audit != nullptr) {
        r = run_audited_api_call(app, req, *entry, *audit, handler);
      } else {
        ApiCall call{req, *entry, app};
        auto result = handler(call);
        r = result.ok() ? std::move(result).value() : write_error(result.error());
      }
      if (started.ticket) r = idempotency_finish(std::move(started.ticket), std::move(r));
    }
  }
  add_rate_headers(r, rate);
  return r;
}

void add_route(Router& router, ApiContext& app, std::string_view method, std::string_view pattern,
               std::optional<Scope> scope, Execution execution, ApiHandler handler,
               std::shared_ptr<const RouteAudit> audit, ErrorWriter write_error) {
  // The handler lives as long as the router (the request's chain may finish on the pool).
  auto shared = std::make_shared<const ApiHandler>(std::move(handler));
  const bool may_wait = execution != Execution::kInline;
  router.add(method, pattern,
             {[&app, scope, shared, may_wait, audit, write_error](Request& req) -> Response {
                return run_chain(app, scope, *shared, req, may_wait, audit.get(), write_error);
              },
              execution});
}
}  // namespace

void add_api_route(Router& router, ApiContext& app, std::string_view method,
                   std::string_view pattern, Scope scope, Execution execution, ApiHandler handler) {
  add_route(router, app, method, pattern, scope, execution, std::move(handler), nullptr,
            error_response);
}

void add_api_route(Router& router, ApiContext& app, std::string_view method,
                   std::string_view pattern, Scope scope, Execution execution, ApiHandler handler,
                   RouteAudit audit) {
  add_route(router, app, method, pattern, scope, execution, std::move(handler),
            std::make_shared<const RouteAudit>(std::move(audit)), error_response);
}

void add_api_route(Router& router, ApiContext& app, std::string_view method,
                   std::string_view pattern, Scope scope, Execution execution, ApiHandler handler,
                   ErrorWriter write_error) {
  add_route(router, app, method, pattern, scope, execution, std::move(handler), nullptr,
            write_error);
}

void add_api_route_any_scope(Router& router, ApiContext& app, std::string_view method,
                             std::string_view pattern, Execution execution, ApiHandler handler) {
  add_route(router, app, method, pattern, std::nullopt, execution, std::move(handler), nullptr,
            error_response);
}

Result<void> require_scope(const ApiCall& call, Scope scope) {
  if (call.key.allows(scope)) return {};
  return ApiError{ErrorCode::kInsufficientScope, "This API key lacks the '" +
                                                     std::string(scope_name(scope)) +
                                                     "' scope needed by this endpoint."};
}

}  // namespace parley
