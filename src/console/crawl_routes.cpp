// Website crawls in the console: start a crawl of a site for an agent, list an agent's crawls
// with their progress, read and cancel one, and "Refresh now" for one website page, one site or
// all of them. Editors start and cancel; every member reads. The crawl runs in the background
// (workers/crawler.h); the dashboard polls its progress.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/crawls.h"
#include "http/responses.h"
#include "views/crawl_json.h"

namespace parley {

namespace {
Result<CrawlDesk*> desk(ConsoleCall& call) {
  if (call.app.crawls == nullptr) return ApiError::internal("Crawling is not configured.");
  return call.app.crawls;
}

Result<std::optional<int64_t>> optional_integer(const FieldReader& f, std::string_view field) {
  const rapidjson::Value* v = f.get(field);
  if (v == nullptr || v->IsNull()) return std::optional<int64_t>();
  if (!v->IsInt64()) return ApiError::invalid("'" + std::string(field) + "' must be an integer.");
  return std::optional<int64_t>(v->GetInt64());
}

Result<std::vector<std::string>> optional_strings(const FieldReader& f, std::string_view field) {
  std::vector<std::string> out;
  const rapidjson::Value* v = f.get(field);
  if (v == nullptr || v->IsNull()) return out;
  const std::string name(field);
  if (!v->IsArray()) return ApiError::invalid("'" + name + "' must be an array of strings.");
  if (v->Size() > kMaxCrawlPatterns)
    return ApiError::invalid("'" + name + "' holds at most " + std::to_string(kMaxCrawlPatterns) +
                             " patterns.");
  for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
    const auto& item = (*v)[i];
    if (!item.IsString())
      return ApiError::invalid("'" + name + "[" + std::to_string(i) + "]' must be a string.");
    out.emplace_back(item.GetString(), item.GetStringLength());
  }
  return out;
}

Result<NewCrawl> parse_new_crawl(const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(req));
  FieldReader f(doc);
  NewCrawl n;
  PARLEY_ASSIGN_OR_RETURN(n.url, f.required_string("url"));
  PARLEY_ASSIGN_OR_RETURN(n.max_pages, optional_integer(f, "maxPages"));
  PARLEY_ASSIGN_OR_RETURN(n.max_depth, optional_integer(f, "maxDepth"));
  PARLEY_ASSIGN_OR_RETURN(n.include, optional_strings(f, "include"));
  PARLEY_ASSIGN_OR_RETURN(n.exclude, optional_strings(f, "exclude"));
  return n;
}

Response crawl_response(int status, const CrawlRecord& crawl) {
  return Response::json(status, crawl_data_json(crawl));
}

Result<Response> start(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(CrawlDesk * d, desk(call));
  PARLEY_ASSIGN_OR_RETURN(auto n, parse_new_crawl(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto crawl, start_crawl(call.services, d->settings, d->resolver,
                                                  call.account_id(), call.param(0), n));
  if (d->listener != nullptr) d->listener->crawls_queued();
  return crawl_response(201, crawl);
}

Result<Response> refresh(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(CrawlDesk * d, desk(call));
  std::optional<std::string> url;
  if (!call.req.body.empty()) {
    PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
    FieldReader f(doc);
    PARLEY_ASSIGN_OR_RETURN(url, f.optional_string("url"));
  }
  PARLEY_ASSIGN_OR_RETURN(
      auto crawl, start_refresh(call.services, d->settings, call.account_id(), call.param(0), url));
  if (d->listener != nullptr) d->listener->crawls_queued();
  return crawl_response(202, crawl);
}

Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto crawls, list_crawls(c, call.account_id(), call.param(0)));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& x : crawls) write_crawl_json(w, x);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> get(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto crawl, get_crawl(c, call.account_id(), call.param(0)));
  return crawl_response(200, crawl);
}

Result<Response> cancel(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto crawl,
                          cancel_crawl(call.services, call.account_id(), call.param(0)));
  return crawl_response(200, crawl);
}
}  // namespace

void register_console_crawl_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/crawls", Role::kEditor,
                    Execution::kPool, start, {.rule = {"crawl.start", "agent", nullptr}});
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/crawls", Role::kViewer,
                    Execution::kPool, list);
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/refresh", Role::kEditor,
                    Execution::kPool, refresh, {.rule = {"source.refresh", "agent", nullptr}});
  add_console_route(router, app, "GET", "/console/v1/crawls/{crawlId}", Role::kViewer,
                    Execution::kPool, get);
  add_console_route(router, app, "POST", "/console/v1/crawls/{crawlId}/cancel", Role::kEditor,
                    Execution::kPool, cancel, {.rule = {"crawl.cancel", "crawl", nullptr}});
}

}  // namespace parley
