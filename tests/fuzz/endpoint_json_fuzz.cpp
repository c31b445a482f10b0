// Fuzzes every endpoint that reads a JSON body, through the real route table and handlers on a
// SQLite database in a temporary directory: the public API (contacts, sources, webhooks, chat),
// the widget's endpoints and the console's (agents and their settings, webhooks, keys, live chat,
// plan). The first byte picks the endpoint; the rest is the body. A handler may refuse a body
// with any 4xx; a 5xx, a crash, or a body that is not JSON is a finding.
//
// Two accounts keep the endpoints from undoing each other: the console's writes (plan, agent
// settings) go to the first, the API's and the widget's to the second.
#include <rapidjson/document.h>

#include <strings.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "server/routes.h"
#include "domain/accounts.h"
#include "domain/agent_settings.h"
#include "domain/agents.h"
#include "domain/keys.h"
#include "domain/members.h"
#include "engine/retrieval_engine.h"
#include "knowledge/knowledge_index.h"
#include "webhooks/subscriptions.h"
#include "net/url_guard.h"

namespace {

using namespace parley;

void check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "endpoint_json_fuzz: %s\n", what);
    std::abort();
  }
}

template <typename T>
T must(Result<T> r, const char* what) {
  if (!r.ok()) {
    std::fprintf(stderr, "endpoint_json_fuzz setup: %s: %s\n", what, r.error().message.c_str());
    std::abort();
  }
  return std::move(*r);
}

// Every name resolves to one public address: subscriptions pass the address check without a
// lookup leaving the process.
class PublicResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string&) override {
    return std::vector<IpAddress>{*parse_ip("93.184.216.34")};
  }
};

class NoTraining final : public SourceListener {
 public:
  void sources_queued() override {}
  void source_removed(std::string_view, std::string_view, int64_t) override {}
};

// Takes a deferred answer (a chat reply) and lets the fuzzer wait for it.
class WaitingResponder final : public Responder {
 public:
  bool claim() override {
    bool expected = false;
    return claimed_.compare_exchange_strong(expected, true);
  }
  void send(Response r) override { finish(r.status, std::move(r.body), r.content_type); }
  void begin(Response head) override {
    std::lock_guard lock(mu_);
    status_ = head.status;
  }
  bool write(std::string_view) override { return true; }
  bool behind(std::function<void()>) override { return false; }
  void end() override { finish(status_, "", "text/plain"); }
  void abort() override { finish(status_, "", "text/plain"); }
  void expire_at(std::chrono::steady_clock::time_point, std::function<Response()>) override {}

  // The answer, once given (at most 30 s).
  Response wait() {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(30), [&] { return done_; });
    Response r;
    r.status = done_ ? status_ : 599;
    r.body = body_;
    r.content_type = content_type_;
    return r;
  }

 private:
  void finish(int status, std::string body, std::string_view content_type) {
    std::lock_guard lock(mu_);
    status_ = status;
    body_ = std::move(body);
    content_type_ = content_type;
    done_ = true;
    cv_.notify_all();
  }
  std::atomic<bool> claimed_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  int status_ = 0;
  std::string body_;
  std::string_view content_type_;
};

struct Endpoint {
  const char* method;
  std::string path;
  std::string token;  // an API key or a console member token; empty for the widget
};

std::string json_member(const std::string& body, const char* name) {
  rapidjson::Document d;
  d.Parse(body.data(), body.size());
  if (d.HasParseError() || !d.IsObject()) return "";
  // A member of the object, or of its "data" envelope.
  const rapidjson::Value& v = d.HasMember("data") && d["data"].IsObject() ? d["data"] : d;
  if (!v.HasMember(name) || !v[name].IsString()) return "";
  return v[name].GetString();
}

// The server, built once per process as `parley serve` builds it, minus sockets and threads
// that would reach outside (LLM providers, webhook delivery, training).
class Fixture {
 public:
  static constexpr std::string_view kVisitor = "visitor-fuzz";

  Fixture() {
    char tpl[] = "/tmp/parley-fuzz-XXXXXX";
    dir_ = mkdtemp(tpl);
    db_ = must(open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal}), "database");
    keys_ = std::make_unique<KeyCache>(*db_, clock_);
    limiter_ = std::make_unique<RateLimiter>(clock_, int64_t{1} << 40);
    index_ = std::make_unique<KnowledgeIndex>(*db_);
    console_ = std::make_unique<ConsoleServices>(clock_, ConsoleOptions{});
    engine_ = std::make_unique<RetrievalEngine>(clock_, RetrievalOptions{});
    ChatConfig chat;
    chat.replies_per_agent_hour = int64_t{1} << 40;
    ChatServices chat_services{*db_, clock_, random_, *engine_, *index_, chat};
    fronts_ = std::make_unique<Fronts>(Fronts{
        ApiContext{*db_, clock_, random_, *keys_, *limiter_, training_, pool_, chat_services, &policy_},
        ConsoleContext{*db_, clock_, random_, *console_, &policy_},
        WidgetContext{*db_, clock_, random_, pool_, chat_services}});
    register_routes(router_, *fronts_, "");

    Services s{*db_, clock_, random_};
    auto console_account = must(create_account(s, "Console", "enterprise"), "account");
    auto api_account = must(create_account(s, "Api", "enterprise"), "account");
    auto console_agent = must(create_agent(s, console_account.id, "Console agent", false, ""), "agent");
    auto api_agent = must(create_agent(s, api_account.id, "Api agent", false, ""), "agent");
    std::string key = must(create_api_key(s, api_account.id, "fuzz", std::nullopt), "key").plaintext;
    NewMember owner{console_account.id, "owner@example.com", "owner", std::nullopt, std::nullopt};
    std::string member = must(create_member(s, owner), "member").token;
    settings_ = console_agent.settings;

    std::string visitor_message = R"({"visitorId":")" + std::string(kVisitor) + R"(","message":"Hello"})";
    std::string api_conversation = made("POST", "/widget/v1/agents/" + api_agent.id + "/messages", "",
                                        visitor_message, "conversationId");
    std::string console_conversation = made("POST", "/widget/v1/agents/" + console_agent.id + "/messages",
                                            "", visitor_message, "conversationId");
    std::string contact = made("POST", "/api/v1/agents/" + api_agent.id + "/contacts", key,
                               R"({"email":"a@example.com"})", "id");
    std::string webhook = made("POST", "/console/v1/agents/" + console_agent.id + "/webhooks", member,
                               R"({"url":"https://example.com/hook","events":["lead.created"]})", "id");

    std::string api = "/api/v1/agents/" + api_agent.id;
    std::string widget = "/widget/v1/conversations/" + api_conversation;
    std::string console_chat = "/console/v1/conversations/" + console_conversation;
    endpoints_ = {
        {"POST", api + "/contacts", key},
        {"PATCH", "/api/v1/contacts/" + contact, key},
        {"POST", api + "/sources", key},
        {"POST", api + "/webhooks", key},
        {"POST", api + "/chat", key},
        {"POST", "/widget/v1/agents/" + api_agent.id + "/messages", ""},
        {"POST", widget + "/form", ""},
        {"POST", widget + "/contact", ""},
        {"POST", widget + "/csat", ""},
        {"POST", widget + "/booking", ""},
        {"POST", widget + "/return", ""},
        {"POST", "/console/v1/agents", member},
        {"PATCH", "/console/v1/agents/" + console_agent.id, member},
        {"POST", "/console/v1/agents/" + console_agent.id + "/webhooks", member},
        {"PATCH", "/console/v1/webhooks/" + webhook, member},
        {"POST", "/console/v1/keys", member},
        {"POST", console_chat + "/takeover", member},
        {"POST", console_chat + "/reply", member},
        {"PUT", "/console/v1/account", member},
    };
  }

  const std::string& dir() const { return dir_; }

  // Endpoints, plus one more choice: the settings merge on its own, which is cheaper than a
  // round trip through the console and sees more inputs per second.
  size_t choices() const { return endpoints_.size() + 1; }

  void run(size_t choice, std::string_view body) {
    if (choice == endpoints_.size()) return merge(body);
    const Endpoint& e = endpoints_[choice];
    Response res = call(e.method, e.path, e.token, std::string(body));
    check(res.status >= 200 && res.status < 500, "a body was answered with a 5xx");
    if (!res.body.empty() && res.content_type == "application/json") {
      rapidjson::Document d;
      d.Parse(res.body.data(), res.body.size());
      check(!d.HasParseError(), "a response body is not JSON");
    }
  }

 private:
  Response call(const char* method, const std::string& path, const std::string& token, std::string body) {
    Request req;
    req.method = method;
    req.path = path;
    req.body = std::move(body);
    req.request_id = "req_fuzz";
    req.remote_address = "127.0.0.1";
    headers_.clear();
    headers_.push_back("application/json");
    headers_.push_back(token.empty() ? "" : "Bearer " + token);
    req.set_header_source(&headers_, [](const void* native, std::string_view name) -> std::string_view {
      const auto& h = *static_cast<const std::vector<std::string>*>(native);
      auto is = [name](std::string_view wanted) {
        return name.size() == wanted.size() && strncasecmp(name.data(), wanted.data(), name.size()) == 0;
      };
      if (is("Content-Type")) return h[0];
      if (is("Authorization")) return h[1];
      return {};
    });
    auto m = router_.match(req.method, req.path, req.params);
    check(m.outcome == Router::Outcome::kFound, "a fixture route is missing");
    Response res = m.target->handler(req);
    if (!res.deferred) return res;
    // A chat reply is answered later, from other threads: wait for it.
    auto answer = std::make_shared<WaitingResponder>();
    res.deferred(answer);
    return answer->wait();
  }

  // A setup request: the string member `field` of its answer.
  std::string made(const char* method, const std::string& path, const std::string& token,
                   const std::string& body, const char* field) {
    Response res = call(method, path, token, body);
    std::string value = json_member(res.body, field);
    if (value.empty()) {
      std::fprintf(stderr, "endpoint_json_fuzz setup: %s %s answered %d %s\n", method, path.c_str(),
                   res.status, res.body.c_str());
      std::abort();
    }
    return value;
  }

  // The console's settings update, on its own: merged into the agent's settings as stored, and
  // the result must redact to JSON and merge into itself unchanged.
  void merge(std::string_view update) {
    auto merged = merge_agent_settings(settings_, update);
    if (!merged.ok()) {
      check(http_status(merged.error().code) < 500, "a settings update was answered with a 5xx");
      return;
    }
    std::string shown = redact_agent_settings(*merged);
    rapidjson::Document d;
    d.Parse(shown.data(), shown.size());
    check(!d.HasParseError() && d.IsObject(), "redacted settings are not a JSON object");
    auto again = merge_agent_settings(*merged, "{}");
    check(again.ok() && *again == *merged, "an empty update changed the settings");
  }

  std::string dir_;
  SystemClock clock_;
  SecureRandom random_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<KeyCache> keys_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<KnowledgeIndex> index_;
  NoTraining training_;
  std::unique_ptr<ConsoleServices> console_;
  std::unique_ptr<RetrievalEngine> engine_;
  ThreadPool pool_{2};
  PublicResolver resolver_;
  WebhookPolicy policy_{resolver_, false};
  std::unique_ptr<Fronts> fronts_;
  Router router_;
  std::string settings_;
  std::vector<Endpoint> endpoints_;
  std::vector<std::string> headers_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Lives to the end of the process (its threads with it); only its directory is removed.
  static Fixture* fixture = [] {
    auto* f = new Fixture();
    static std::string dir = f->dir();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    return f;
  }();
  if (size == 0) return 0;
  fixture->run(data[0] % fixture->choices(), std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  return 0;
}
