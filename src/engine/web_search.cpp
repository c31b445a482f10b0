#include "engine/web_search.h"

#include <rapidjson/document.h>

#include <atomic>
#include <cctype>
#include <memory>

#include "core/json.h"
#include "core/log.h"
#include "core/percent_encoding.h"
#include "crawl/user_agent.h"
#include "extract/extract.h"
#include "net/outbound.h"

namespace parley {

namespace {
constexpr size_t kMaxSearchAnswerBytes = 1u << 20;
constexpr size_t kMaxPageBytes = 2u << 20;
// A page is read during a chat turn: a PDF's reader gets a second and a half of CPU at most.
constexpr ExtractLimits kWebPageLimits{
    .max_text_chars = kWebPageChars * 4, .reader_cpu_ms = 500, .reader_cpu_ms_per_mib = 500};

bool is_page_address(std::string_view url) {
  return (url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0) &&
         url.find_first_of(" \t\r\n") == std::string_view::npos;
}

// The first `max` characters of `text` (code points), cut at a space where one is near.
std::string cut_text(std::string text, size_t max) {
  size_t chars = 0, at = 0;
  while (at < text.size() && chars < max) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
    ++chars;
  }
  if (at >= text.size()) return text;
  size_t space = text.rfind(' ', at);
  text.resize(space != std::string::npos && space > at / 2 ? space : at);
  return text + " …";
}

TransferCall get_call(std::string url, std::vector<std::pair<std::string, std::string>> headers,
                      std::optional<PinnedTarget> pin, const WebSearchCall& call,
                      size_t max_bytes) {
  TransferCall t;
  t.request.url = std::move(url);
  t.request.method = "GET";
  t.request.headers = std::move(headers);
  t.request.headers.emplace_back("User-Agent", crawler_user_agent());
  t.request.timeout_ms = call.timeout_ms;
  t.request.connect_timeout_ms = std::min<int64_t>(call.timeout_ms, 5000);
  t.request.max_response_bytes = max_bytes;
  t.request.allow_http =
      true;  // the URL guard decided (http only where private targets are allowed)
  t.request.accept_compressed = true;
  t.request.response_headers = {"Content-Type"};
  t.pin = std::move(pin);
  t.ca_bundle = call.ca_bundle;
  return t;
}

// The pages being read: one slot each, the last to finish hands them on.
struct Reading {
  std::vector<WebPage> pages;
  std::vector<SendOutcome> answers;
  std::atomic<size_t> left{0};
  RunBlocking run_blocking;
  std::function<void(Result<std::vector<WebPage>>)> done;

  // On a blocking thread: each answer read as the crawler reads a document.
  void finish() {
    for (size_t i = 0; i < pages.size(); ++i) {
      const SendOutcome& a = answers[i];
      if (!a.succeeded() || a.body.empty()) continue;
      auto doc =
          extract_document({a.body, a.header("Content-Type").value_or(""), ""}, kWebPageLimits);
      if (!doc.ok()) continue;
      std::string text = render_text(*doc);
      if (is_blank(text)) continue;
      pages[i].text = cut_text(std::move(text), kWebPageChars);
      if (!doc->title.empty()) pages[i].title = doc->title;
      pages[i].read = true;
    }
    auto finish_with = std::move(done);
    finish_with(std::move(pages));
  }
};

// On the outbound loop: one page's answer; the last one hands the reading to a blocking thread.
void page_answered(const std::shared_ptr<Reading>& reading, size_t i, SendOutcome outcome) {
  reading->answers[i] = std::move(outcome);
  if (reading->left.fetch_sub(1, std::memory_order_acq_rel) == 1)
    reading->run_blocking([reading] { reading->finish(); });
}

// On a blocking thread: each page's address checked, then every page asked for at once.
void read_pages(std::shared_ptr<Reading> reading, const WebSearchCall& call,
                const AddressCheck& check) {
  std::vector<std::optional<PinnedTarget>> pins(reading->pages.size());
  size_t asked = 0;
  for (size_t i = 0; i < reading->pages.size(); ++i) {
    auto target = check(reading->pages[i].url);
    if (!target.ok()) {
      log_info("web_page_refused", {{"reason", std::string_view(target.error().message)}});
      continue;
    }
    pins[i] = std::move(*target);
    ++asked;
  }
  reading->answers.resize(reading->pages.size());
  if (asked == 0) return reading->finish();
  reading->left = asked;
  for (size_t i = 0; i < reading->pages.size(); ++i) {
    if (!pins[i]) continue;
    TransferCall t = get_call(reading->pages[i].url, {}, std::move(pins[i]), call, kMaxPageBytes);
    t.done = [reading, i](SendOutcome outcome) { page_answered(reading, i, std::move(outcome)); };
    start_transfer(std::move(t));
  }
}
}  // namespace

std::string web_search_url(const WebSearchCall& call) {
  std::string base = call.url;
  if (call.provider == "brave" && base.empty())
    base = "https://api.search.brave.com/res/v1/web/search";
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (call.provider != "brave" &&
      (base.size() < 7 || base.compare(base.size() - 7, 7, "/search") != 0))
    base += "/search";
  base += base.find('?') == std::string::npos ? '?' : '&';
  base += "q=" + percent_encode(call.query);
  if (call.provider == "brave") return base + "&count=" + std::to_string(call.max_results);
  return base + "&format=json";
}

Result<std::vector<WebPage>> parse_search_results(std::string_view provider, std::string_view body,
                                                  int64_t max_results) {
  auto parsed = parse_json_value(body);
  if (!parsed.ok() || !parsed->IsObject())
    return ApiError::internal("The search provider's answer is not JSON.");
  const rapidjson::Value* list = nullptr;
  if (provider == "brave") {
    auto web = parsed->FindMember("web");
    if (web != parsed->MemberEnd() && web->value.IsObject()) {
      auto r = web->value.FindMember("results");
      if (r != web->value.MemberEnd()) list = &r->value;
    }
  } else {
    auto r = parsed->FindMember("results");
    if (r != parsed->MemberEnd()) list = &r->value;
  }
  std::vector<WebPage> out;
  if (list == nullptr || !list->IsArray()) return out;
  for (const auto& item : list->GetArray()) {
    if (static_cast<int64_t>(out.size()) >= max_results) break;
    std::string url(string_member(item, "url"));
    if (!is_page_address(url)) continue;
    bool seen = false;
    for (const auto& p : out) seen = seen || p.url == url;
    if (seen) continue;
    WebPage page;
    page.url = std::move(url);
    page.title = std::string(string_member(item, "title"));
    page.text =
        cut_text(std::string(string_member(item, provider == "brave" ? "description" : "content")),
                 kWebPageChars);
    out.push_back(std::move(page));
  }
  return out;
}

void web_search(WebSearchCall call, AddressCheck check, RunBlocking run_blocking,
                std::function<void(Result<std::vector<WebPage>>)> done) {
  std::vector<std::pair<std::string, std::string>> headers = {{"Accept", "application/json"}};
  if (!call.api_key.empty()) headers.emplace_back("X-Subscription-Token", call.api_key);
  auto shared = std::make_shared<WebSearchCall>(std::move(call));
  TransferCall t = get_call(web_search_url(*shared), std::move(headers), shared->pin, *shared,
                            kMaxSearchAnswerBytes);
  t.done = [shared, check = std::move(check), run_blocking = std::move(run_blocking),
            done = std::move(done)](SendOutcome outcome) mutable {
    if (outcome.failure == SendFailure::kTimeout)
      return done(ApiError{ErrorCode::kTimeout, "The search provider took too long."});
    if (!outcome.status)
      return done(ApiError::internal("The search provider could not be reached."));
    if (!outcome.succeeded())
      return done(ApiError::internal("The search provider answered with status " +
                                     std::to_string(*outcome.status) + "."));
    auto pages = parse_search_results(shared->provider, outcome.body, shared->max_results);
    if (!pages.ok() || pages->empty() || !shared->fetch_pages) return done(std::move(pages));
    auto reading = std::make_shared<Reading>();
    reading->pages = std::move(*pages);
    reading->run_blocking = run_blocking;
    reading->done = std::move(done);
    run_blocking(
        [reading, shared, check = std::move(check)] { read_pages(reading, *shared, check); });
  };
  start_transfer(std::move(t));
}

std::string web_results_json(const std::vector<WebPage>& pages) {
  JsonWriter w;
  w.begin_object().key("results").begin_array();
  for (const auto& p : pages)
    w.begin_object()
        .key("title")
        .string(p.title)
        .key("url")
        .string(p.url)
        .key("text")
        .string(p.text)
        .end_object();
  w.end_array().end_object();
  return w.str();
}

}  // namespace parley
