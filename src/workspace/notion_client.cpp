#include "workspace/notion_client.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <thread>

#include "core/json.h"
#include "core/percent_encoding.h"

namespace parley {

namespace {
constexpr int64_t kDefaultRetryAfterMs = 1000;  // a 429 without Retry-After

// Retry-After as Notion sends it: whole seconds.
std::optional<int64_t> retry_after_ms(const SendOutcome& out) {
  auto v = out.header("Retry-After");
  if (!v || v->empty() || v->size() > 9) return std::nullopt;
  int64_t s = 0;
  for (char c : *v) {
    if (c < '0' || c > '9') return std::nullopt;
    s = s * 10 + (c - '0');
  }
  return s * 1000;
}

int64_t whole_seconds(int64_t ms) { return std::max<int64_t>(1, (ms + 999) / 1000); }

// Notion's error body: {"object": "error", "status": 404, "code": "object_not_found", "message":
// …}.
std::string notion_said(int64_t status, std::string_view body) {
  std::string said = std::to_string(status);
  auto doc = parse_json_value(body);
  if (doc.ok() && doc->IsObject()) {
    auto code = string_member(*doc, "code");
    auto message = string_member(*doc, "message");
    if (!code.empty()) said += " " + std::string(code);
    if (!message.empty()) said += ": " + std::string(message.substr(0, 300));
  }
  return said;
}

ApiError error_for(int64_t status, std::string_view body) {
  std::string said = notion_said(status, body);
  switch (status) {
    case 401:
      return {ErrorCode::kUnauthorized, "Notion refused the integration token (" + said + ")."};
    case 403:
      return {ErrorCode::kForbidden,
              "Notion refused access (" + said +
                  "); the integration needs the \"Read content\" capability."};
    case 404:
      return {ErrorCode::kNotFound,
              "Notion has no such page, or it is not shared with the integration (" + said + ")."};
    default:
      if (status >= 500) return {ErrorCode::kUnavailable, "Notion answered " + said + "."};
      return ApiError::invalid("Notion refused the request (" + said + ").");
  }
}

bool retried_after_backoff(int64_t status) {
  return status == 500 || status == 502 || status == 503 || status == 504;
}
}  // namespace

NotionWait sleeping_wait() {
  return [](int64_t ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return true;
  };
}

SendOutcome NotionSender::send(const SendRequest& request) {
  if (operator_url_) return send_to(request, nullptr);
  return guarded_.send(request);
}

NotionClient::NotionClient(HttpSender& sender, NotionOptions options, std::string token,
                           NotionWait wait)
    : sender_(sender),
      options_(std::move(options)),
      token_(std::move(token)),
      wait_(std::move(wait)) {}

Result<rapidjson::Document> NotionClient::call(const std::string& method, const std::string& path,
                                               const std::string& body) {
  SendRequest r;
  r.url = options_.api_url + path;
  r.method = method;
  r.headers = {{"Authorization", "Bearer " + token_},
               {"Notion-Version", std::string(kNotionVersion)},
               {"Accept", "application/json"}};
  if (method == "POST") r.headers.emplace_back("Content-Type", "application/json");
  r.body = body;
  r.connect_timeout_ms = options_.connect_timeout_ms;
  r.timeout_ms = options_.timeout_ms;
  r.max_response_bytes = options_.max_response_bytes;
  r.allow_http = options_.operator_url;
  r.accept_compressed = true;
  r.response_headers = {"Retry-After"};
  int64_t backoff_ms = 1000;
  for (int attempt = 1;; ++attempt) {
    ++requests_;
    SendOutcome out = sender_.send(r);
    const bool last = attempt >= options_.max_attempts;
    if (!out.status) {
      if (out.failure == SendFailure::kUrl || out.failure == SendFailure::kAddress)
        return ApiError{ErrorCode::kUnavailable,
                        "Notion's address is refused: " + out.error.value_or("") + "."};
      if (out.failure == SendFailure::kStopped || last) {
        if (out.failure == SendFailure::kTimeout)
          return ApiError{ErrorCode::kUnavailable,
                          "Notion did not answer within " +
                              std::to_string(whole_seconds(options_.timeout_ms)) + " s."};
        return ApiError{ErrorCode::kUnavailable,
                        "Notion could not be reached: " + out.error.value_or("") + "."};
      }
    } else if (*out.status == 200) {
      if (out.truncated)
        return ApiError::internal("Notion's answer is larger than " +
                                  std::to_string(options_.max_response_bytes) + " bytes.");
      auto doc = parse_json_value(out.body);
      if (!doc.ok() || !doc->IsObject())
        return ApiError::internal("Notion's answer is not a JSON object.");
      return std::move(doc).value();
    } else if (*out.status == 429 || *out.status == 529) {
      int64_t wait_ms = retry_after_ms(out).value_or(kDefaultRetryAfterMs);
      if (last || wait_ms > options_.max_retry_wait_ms) {
        ApiError e{ErrorCode::kRateLimited,
                   "Notion is limiting requests (" + notion_said(*out.status, out.body) +
                       "); try again in " + std::to_string(whole_seconds(wait_ms)) + " s."};
        e.retry_after_s = whole_seconds(wait_ms);
        return e;
      }
      if (!wait_(wait_ms))
        return ApiError{ErrorCode::kUnavailable, "Stopped while waiting for Notion."};
      continue;
    } else if (!retried_after_backoff(*out.status) || last) {
      return error_for(*out.status, out.body);
    }
    if (!wait_(backoff_ms))
      return ApiError{ErrorCode::kUnavailable, "Stopped while waiting for Notion."};
    backoff_ms = std::min<int64_t>(backoff_ms * 2, 8000);
  }
}

Result<NotionBot> NotionClient::me() {
  PARLEY_ASSIGN_OR_RETURN(auto doc, call("GET", "/v1/users/me", ""));
  NotionBot bot;
  bot.id = std::string(string_member(doc, "id"));
  bot.name = std::string(string_member(doc, "name"));
  auto b = doc.FindMember("bot");
  if (b != doc.MemberEnd()) {
    auto name = string_member(b->value, "workspace_name");
    if (!name.empty()) bot.workspace_name = std::string(name);
  }
  if (bot.id.empty()) return ApiError::internal("Notion's user answer has no id.");
  return bot;
}

Result<NotionPageList> NotionClient::shared_pages() {
  NotionPageList list;
  std::string cursor;
  while (true) {
    JsonWriter w;
    w.begin_object().key("filter").begin_object().key("property").string("object");
    w.key("value").string("page").end_object();
    w.key("page_size").integer(100);
    if (!cursor.empty()) w.key("start_cursor").string(cursor);
    w.end_object();
    PARLEY_ASSIGN_OR_RETURN(auto doc, call("POST", "/v1/search", w.str()));
    auto results = doc.FindMember("results");
    if (results == doc.MemberEnd() || !results->value.IsArray())
      return ApiError::internal("Notion's search answer has no results.");
    for (const auto& item : results->value.GetArray()) {
      if (string_member(item, "object") != "page") continue;
      NotionPage page = read_page(item);
      if (page.gone || page.id.empty()) continue;
      if (list.pages.size() >= options_.max_listed_pages) {
        list.truncated = true;
        return list;
      }
      list.pages.push_back(std::move(page));
    }
    auto more = doc.FindMember("has_more");
    cursor = std::string(string_member(doc, "next_cursor"));
    if (more == doc.MemberEnd() || !more->value.IsBool() || !more->value.GetBool() ||
        cursor.empty())
      return list;
  }
}

Result<NotionPage> NotionClient::page(const std::string& page_id) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, call("GET", "/v1/pages/" + percent_encode(page_id), ""));
  if (string_member(doc, "object") != "page")
    return ApiError::internal("Notion's answer is not a page.");
  return read_page(doc);
}

Result<NotionPageContent> NotionClient::page_content(const std::string& page_id,
                                                     const std::function<void()>& tick) {
  NotionPageContent content;
  blocks_read_ = 0;
  PARLEY_TRY(children(page_id, 1, content.blocks, content, tick));
  return content;
}

Result<void> NotionClient::children(const std::string& block_id, int depth,
                                    std::vector<NotionBlock>& out, NotionPageContent& content,
                                    const std::function<void()>& tick) {
  std::string cursor;
  while (true) {
    if (tick) tick();
    std::string path = "/v1/blocks/" + percent_encode(block_id) + "/children?page_size=100";
    if (!cursor.empty()) path += "&start_cursor=" + percent_encode(cursor);
    PARLEY_ASSIGN_OR_RETURN(auto doc, call("GET", path, ""));
    auto results = doc.FindMember("results");
    if (results == doc.MemberEnd() || !results->value.IsArray())
      return ApiError::internal("Notion's block list has no results.");
    for (const auto& item : results->value.GetArray()) {
      if (blocks_read_ >= options_.max_blocks) {
        content.truncated = true;
        return {};
      }
      ++blocks_read_;
      out.push_back(read_block(item));
    }
    auto more = doc.FindMember("has_more");
    cursor = std::string(string_member(doc, "next_cursor"));
    if (more == doc.MemberEnd() || !more->value.IsBool() || !more->value.GetBool() ||
        cursor.empty())
      break;
  }
  // Children are read once this level is whole: `out` no longer grows while they are filled in.
  for (auto& block : out) {
    if (!wants_children(block) || !canonical_notion_id(block.id)) continue;
    if (depth >= options_.max_depth) {
      content.truncated = true;
      continue;
    }
    PARLEY_TRY(children(block.id, depth + 1, block.children, content, tick));
    if (content.truncated && blocks_read_ >= options_.max_blocks) return {};
  }
  return {};
}

std::optional<std::string> canonical_notion_id(std::string_view text) {
  std::string hex;
  for (char c : text) {
    if (c == '-') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    hex.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (hex.size() != 32) return std::nullopt;
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

}  // namespace parley
