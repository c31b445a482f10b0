#include "fake_notion.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/time_format.h"
#include "loopback_listener.h"
#include "stand_in_http.h"

namespace parley::e2e {

namespace {
using Json = nlohmann::json;

constexpr int64_t kEpochOfEdits = 1709287200000;  // 2024-03-01T10:00:00.000Z

// Notion accepts ids with or without dashes.
std::string dashed(const std::string& id) {
  std::string hex;
  for (char c : id)
    if (c != '-') hex.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (hex.size() != 32) return id;
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

std::string query_value(const std::string& query, const std::string& name) {
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t end = query.find('&', pos);
    if (end == std::string::npos) end = query.size();
    std::string pair = query.substr(pos, end - pos);
    if (pair.rfind(name + "=", 0) == 0) return pair.substr(name.size() + 1);
    pos = end + 1;
  }
  return "";
}

Json rich_text(const std::string& text) {
  if (text.empty()) return Json::array();
  return Json::array({{{"type", "text"},
                       {"text", {{"content", text}, {"link", nullptr}}},
                       {"annotations",
                        {{"bold", false},
                         {"italic", false},
                         {"strikethrough", false},
                         {"underline", false},
                         {"code", false},
                         {"color", "default"}}},
                       {"plain_text", text},
                       {"href", nullptr}}});
}

Json user(const std::string& id) { return {{"object", "user"}, {"id", id}}; }

}  // namespace

FakeNotion::FakeNotion() {
  auto listener = listen_on_loopback(64);
  listen_fd_ = listener.fd;
  port_ = listener.port;
  acceptor_ = std::thread([this] { accept_loop(); });
}

FakeNotion::~FakeNotion() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ::shutdown(listen_fd_, SHUT_RDWR);
  ::close(listen_fd_);
  acceptor_.join();
  for (auto& t : workers_) t.join();
}

std::string FakeNotion::base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeNotion::add_token(const std::string& token, const std::string& workspace_name) {
  std::lock_guard lock(mu_);
  tokens_[token] = workspace_name;
}

void FakeNotion::revoke_token(const std::string& token) {
  std::lock_guard lock(mu_);
  tokens_.erase(token);
}

std::string FakeNotion::new_id() {
  char buf[40];
  uint64_t n = next_id_++;
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-8%03x-%012llx",
                0x5eed0000u + static_cast<unsigned>(port_), static_cast<unsigned>(n >> 48) & 0xffff,
                static_cast<unsigned>(n >> 36) & 0xfff, static_cast<unsigned>(n >> 24) & 0xfff,
                static_cast<unsigned long long>(n & 0xffffffffffffULL));
  return buf;
}

std::vector<std::string> FakeNotion::add_blocks(const std::string& parent,
                                                const std::vector<FakeBlock>& blocks) {
  std::vector<std::string> ids;
  for (const auto& content : blocks) {
    Block b;
    b.id = new_id();
    b.parent = parent;
    b.content = content;
    b.content.children.clear();
    b.children = add_blocks(b.id, content.children);
    ids.push_back(b.id);
    blocks_[b.id] = std::move(b);
  }
  return ids;
}

std::string FakeNotion::add_page(const std::string& title, std::vector<FakeBlock> blocks) {
  std::lock_guard lock(mu_);
  Page p;
  p.id = new_id();
  p.title = title;
  p.blocks = add_blocks(p.id, blocks);
  page_order_.push_back(p.id);
  std::string id = p.id;
  pages_[id] = std::move(p);
  return id;
}

void FakeNotion::edit_page(const std::string& id, std::vector<FakeBlock> blocks,
                           const std::string& title) {
  std::lock_guard lock(mu_);
  Page& p = pages_.at(id);
  p.blocks = add_blocks(p.id, blocks);  // the old blocks stay unreachable
  if (!title.empty()) p.title = title;
  ++p.edits;
}

void FakeNotion::unshare_page(const std::string& id) {
  std::lock_guard lock(mu_);
  pages_.at(id).shared = false;
}

void FakeNotion::trash_page(const std::string& id) {
  std::lock_guard lock(mu_);
  Page& p = pages_.at(id);
  p.in_trash = true;
  ++p.edits;
}

std::string FakeNotion::page_url(const std::string& id) const {
  std::lock_guard lock(mu_);
  const Page& p = pages_.at(id);
  std::string slug;
  for (char c : p.title) slug.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '-');
  std::string hex;
  for (char c : id)
    if (c != '-') hex.push_back(c);
  return "https://www.notion.so/" + slug + "-" + hex;
}

void FakeNotion::rate_limit_next(int count, int retry_after_s) {
  std::lock_guard lock(mu_);
  rate_limit_count_ = count;
  rate_limit_retry_after_s_ = retry_after_s;
}

void FakeNotion::set_max_page_size(size_t n) {
  std::lock_guard lock(mu_);
  max_page_size_ = n;
}

std::vector<FakeNotionRequest> FakeNotion::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

size_t FakeNotion::count(const std::string& method, const std::string& prefix) const {
  std::lock_guard lock(mu_);
  return std::count_if(requests_.begin(), requests_.end(), [&](const FakeNotionRequest& r) {
    return r.method == method && r.target.rfind(prefix, 0) == 0;
  });
}

size_t FakeNotion::rate_limited_answers() const {
  std::lock_guard lock(mu_);
  return rate_limited_;
}

FakeNotion::Answer FakeNotion::error(int status, const std::string& code,
                                     const std::string& message) const {
  Json body = {{"object", "error"},
               {"status", status},
               {"code", code},
               {"message", message},
               {"request_id", "00000000-0000-4000-8000-000000000000"}};
  return {status, body.dump(), 0};
}

std::string FakeNotion::page_json(const Page& p) const {
  std::string hex;
  for (char c : p.id)
    if (c != '-') hex.push_back(c);
  std::string slug;
  for (char c : p.title) slug.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '-');
  Json page = {{"object", "page"},
               {"id", p.id},
               {"created_time", format_timestamp(kEpochOfEdits)},
               {"last_edited_time", format_timestamp(kEpochOfEdits + 60'000 * p.edits)},
               {"created_by", user("0c1a5e00-0000-4000-8000-000000000001")},
               {"last_edited_by", user("0c1a5e00-0000-4000-8000-000000000001")},
               {"cover", nullptr},
               {"icon", nullptr},
               {"parent", {{"type", "workspace"}, {"workspace", true}}},
               {"archived", p.in_trash},
               {"in_trash", p.in_trash},
               {"properties",
                {{"title", {{"id", "title"}, {"type", "title"}, {"title", rich_text(p.title)}}}}},
               {"url", "https://www.notion.so/" + slug + "-" + hex},
               {"public_url", nullptr}};
  return page.dump();
}

std::string FakeNotion::block_json(const Block& b) const {
  const FakeBlock& c = b.content;
  Json body = Json::object();
  if (c.type == "child_page") {
    body = {{"title", c.text}};
  } else if (c.type == "table") {
    size_t width = 0;
    for (const auto& id : b.children) width = std::max(width, blocks_.at(id).content.cells.size());
    body = {
        {"table_width", width}, {"has_column_header", c.column_header}, {"has_row_header", false}};
  } else if (c.type == "table_row") {
    Json cells = Json::array();
    for (const auto& cell : c.cells) cells.push_back(rich_text(cell));
    body = {{"cells", cells}};
  } else if (c.type == "image") {
    body = {{"type", "external"},
            {"external", {{"url", "https://example.com/a.png"}}},
            {"caption", rich_text(c.text)}};
  } else if (c.type != "divider") {
    body = {{"rich_text", rich_text(c.text)}, {"color", "default"}};
    if (c.type == "to_do") body["checked"] = c.checked;
    if (c.type == "code") {
      body["language"] = "plain text";
      body["caption"] = Json::array();
    }
    if (c.type.rfind("heading_", 0) == 0) body["is_toggleable"] = !b.children.empty();
    if (c.type == "callout") body["icon"] = {{"type", "emoji"}, {"emoji", "💡"}};
  }
  bool under_page = pages_.count(b.parent) > 0;
  Json block = {{"object", "block"},
                {"id", b.id},
                {"parent", under_page ? Json{{"type", "page_id"}, {"page_id", b.parent}}
                                      : Json{{"type", "block_id"}, {"block_id", b.parent}}},
                {"created_time", format_timestamp(kEpochOfEdits)},
                {"last_edited_time", format_timestamp(kEpochOfEdits)},
                {"created_by", user("0c1a5e00-0000-4000-8000-000000000001")},
                {"last_edited_by", user("0c1a5e00-0000-4000-8000-000000000001")},
                {"has_children", !b.children.empty()},
                {"archived", false},
                {"in_trash", false},
                {"type", c.type},
                {c.type, body}};
  return block.dump();
}

FakeNotion::Answer FakeNotion::list(const std::vector<std::string>& items,
                                    const std::string& cursor, size_t page_size,
                                    const std::string& type) const {
  size_t start = 0;
  if (!cursor.empty()) {
    auto it = std::find(items.begin(), items.end(), cursor);
    if (it == items.end())
      return error(400, "validation_error", "start_cursor should be a valid cursor.");
    start = static_cast<size_t>(it - items.begin());
  }
  size_t n = std::min({page_size == 0 ? size_t{100} : page_size, max_page_size_, size_t{100}});
  size_t end = std::min(items.size(), start + n);
  std::string results;
  for (size_t i = start; i < end; ++i) {
    if (!results.empty()) results += ",";
    results += type == "block" ? block_json(blocks_.at(items[i])) : page_json(pages_.at(items[i]));
  }
  bool more = end < items.size();
  Json tail = {
      {"next_cursor", more ? Json(items[end]) : Json(nullptr)}, {"has_more", more}, {"type", type}};
  tail[type] = Json::object();
  std::string t = tail.dump();
  return {200, R"({"object":"list","results":[)" + results + "]," + t.substr(1), 0};
}

FakeNotion::Answer FakeNotion::answer(const FakeNotionRequest& req) {
  if (rate_limit_count_ > 0) {
    --rate_limit_count_;
    ++rate_limited_;
    Answer a = error(429, "rate_limited",
                     "You have been rate limited. Please try again in a few minutes.");
    a.retry_after_s = rate_limit_retry_after_s_;
    return a;
  }
  auto auth = req.headers.find("authorization");
  if (auth == req.headers.end() || auth->second.rfind("Bearer ", 0) != 0 ||
      tokens_.count(auth->second.substr(7)) == 0)
    return error(401, "unauthorized", "API token is invalid.");
  if (req.headers.count("notion-version") == 0)
    return error(400, "missing_version",
                 "Notion-Version header failed validation: Notion-Version header should be "
                 "defined, instead was "
                 "`undefined`.");
  const std::string workspace = tokens_[auth->second.substr(7)];
  std::string path = req.target.substr(0, req.target.find('?'));
  std::string query =
      req.target.find('?') == std::string::npos ? "" : req.target.substr(req.target.find('?') + 1);
  if (req.method == "GET" && path == "/v1/users/me") {
    Json me = {
        {"object", "user"},
        {"id", "b0700000-0000-4000-8000-00000000b070"},
        {"name", "Parley"},
        {"avatar_url", nullptr},
        {"type", "bot"},
        {"bot",
         {{"owner", {{"type", "workspace"}, {"workspace", true}}}, {"workspace_name", workspace}}}};
    return {200, me.dump(), 0};
  }
  if (req.method == "POST" && path == "/v1/search") {
    Json body = Json::parse(req.body.empty() ? "{}" : req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object())
      return error(400, "invalid_json", "Error parsing JSON body.");
    std::vector<std::string> shared;
    bool pages_only = body.contains("filter") && body["filter"].value("value", "") == "page";
    (void)pages_only;  // the stand-in holds pages only
    for (const auto& id : page_order_)
      if (pages_.at(id).shared && !pages_.at(id).in_trash) shared.push_back(id);
    size_t size = body.contains("page_size") && body["page_size"].is_number_unsigned()
                      ? body["page_size"].get<size_t>()
                      : 100;
    std::string cursor = body.contains("start_cursor") && body["start_cursor"].is_string()
                             ? body["start_cursor"].get<std::string>()
                             : "";
    return list(shared, cursor, size, "page_or_database");
  }
  const std::string pages_prefix = "/v1/pages/", blocks_prefix = "/v1/blocks/",
                    children_suffix = "/children";
  if (req.method == "GET" && path.rfind(pages_prefix, 0) == 0) {
    std::string id = dashed(path.substr(pages_prefix.size()));
    auto it = pages_.find(id);
    if (it == pages_.end() || !it->second.shared)
      return error(404, "object_not_found",
                   "Could not find page with ID: " + id +
                       ". Make sure the relevant pages and databases are shared with your "
                       "integration.");
    return {200, page_json(it->second), 0};
  }
  if (req.method == "GET" && path.rfind(blocks_prefix, 0) == 0 &&
      path.size() > children_suffix.size() &&
      path.compare(path.size() - children_suffix.size(), children_suffix.size(), children_suffix) ==
          0) {
    std::string id = dashed(path.substr(
        blocks_prefix.size(), path.size() - blocks_prefix.size() - children_suffix.size()));
    // The page that holds the block must be shared.
    std::string owner = id;
    while (blocks_.count(owner) > 0) owner = blocks_.at(owner).parent;
    auto page = pages_.find(owner);
    if (page == pages_.end() || !page->second.shared)
      return error(404, "object_not_found",
                   "Could not find block with ID: " + id +
                       ". Make sure the relevant pages and databases are shared with your "
                       "integration.");
    const std::vector<std::string>& children =
        blocks_.count(id) > 0 ? blocks_.at(id).children : page->second.blocks;
    std::string size = query_value(query, "page_size");
    return list(children, query_value(query, "start_cursor"), size.empty() ? 100 : std::stoul(size),
                "block");
  }
  return error(400, "invalid_request_url", "Invalid request URL.");
}

void FakeNotion::accept_loop() {
  accept_until(
      listen_fd_, mu_, workers_, [this] { return stopping_; }, [this](int fd) { serve(fd); });
}

void FakeNotion::serve(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::string in;
  char buf[8192];
  size_t header_end = std::string::npos;
  while ((header_end = in.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      ::close(fd);
      return;
    }
    in.append(buf, static_cast<size_t>(n));
  }
  FakeNotionRequest req;
  std::string head = in.substr(0, header_end);
  size_t line_end = head.find("\r\n");
  std::string request_line = head.substr(0, line_end);
  size_t sp1 = request_line.find(' ');
  size_t sp2 = request_line.find(' ', sp1 + 1);
  req.method = request_line.substr(0, sp1);
  req.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t pos = line_end + 2;
  while (pos < head.size()) {
    size_t e = head.find("\r\n", pos);
    if (e == std::string::npos) e = head.size();
    std::string line = head.substr(pos, e - pos);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      req.headers[ascii_lower(line.substr(0, colon))] = value;
    }
    pos = e + 2;
  }
  size_t length =
      req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
  req.body = in.substr(header_end + 4);
  while (req.body.size() < length) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    req.body.append(buf, static_cast<size_t>(n));
  }
  Answer a;
  {
    std::lock_guard lock(mu_);
    requests_.push_back(req);
    a = answer(req);
  }
  std::string out = "HTTP/1.1 " + std::to_string(a.status) + " " + status_reason(a.status) +
                    "\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: " +
                    std::to_string(a.body.size()) + "\r\n";
  if (a.status == 429) out += "Retry-After: " + std::to_string(a.retry_after_s) + "\r\n";
  out += "Connection: close\r\n\r\n" + a.body;
  send_all(fd, out);
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

}  // namespace parley::e2e
