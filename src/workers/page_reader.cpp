#include "workers/page_reader.h"

#include <memory>
#include <unordered_set>

#include "core/crypto.h"
#include "core/json.h"
#include "domain/sources.h"
#include "extract/document.h"
#include "extract/extract.h"
#include "extract/media_type.h"

namespace parley {

namespace {
// The last segment of the address's path ("report.pdf"), which the type sniffer may read.
std::string file_name(const Url& url) {
  size_t slash = url.path.rfind('/');
  return slash == std::string::npos ? url.path : url.path.substr(slash + 1);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// At most kMaxTitleChars code points (a source's title limit).
std::string clip_title(std::string_view title) {
  std::string out(trim_space(title));
  size_t count = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if ((static_cast<unsigned char>(out[i]) & 0xC0) == 0x80) continue;
    if (++count > kMaxTitleChars) {
      out.resize(i);
      break;
    }
  }
  return out;
}

void add_links(const Url& address, const ExtractedDocument& doc, int64_t link_depth,
               const std::function<bool(const Url&)>& follow, ReadPage& out) {
  std::optional<Url> base_href;
  if (doc.base_href) base_href = resolve_url(address, *doc.base_href);
  const Url& base = base_href ? *base_href : address;
  if (doc.canonical) {
    auto canonical = resolve_url(base, *doc.canonical);
    if (canonical && canonical->text() != address.text() && follow(*canonical))
      out.canonical = canonical;
  }
  if (doc.nofollow || link_depth < 0) return;
  std::unordered_set<std::string> seen{address.text()};
  for (const auto& href : doc.links) {
    auto link = resolve_url(base, href);
    if (!link || !follow(*link)) continue;
    std::string text = link->text();
    if (!seen.insert(text).second) continue;
    out.result.links.push_back(FoundAddress{std::move(text), link_depth, false});
  }
}
}  // namespace

std::string status_reason(int64_t status) {
  return "The server answered " + std::to_string(status) + ".";
}

std::optional<std::string> not_a_page(const Url& url) {
  static const std::unordered_set<std::string> kNotPages = {
      "png", "jpg", "jpeg", "gif",  "webp",  "svg",  "ico", "bmp", "tif",  "tiff", "avif", "mp3",
      "mp4", "m4a", "m4v",  "mov",  "avi",   "webm", "ogg", "wav", "flac", "mkv",  "zip",  "gz",
      "tgz", "bz2", "xz",   "7z",   "rar",   "tar",  "dmg", "exe", "msi",  "apk",  "iso",  "css",
      "js",  "mjs", "map",  "woff", "woff2", "ttf",  "otf", "eot", "json", "rss",  "atom"};
  std::string name = file_name(url);
  size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot + 1 == name.size()) return std::nullopt;
  std::string ext = lower(name.substr(dot + 1));
  if (!kNotPages.count(ext)) return std::nullopt;
  return "Not a page: ." + ext + " files are not read.";
}

ReadPage read_page_answer(const Url& address, const PageResponse& answer, int64_t link_depth,
                          const std::function<bool(const Url&)>& follow) {
  ReadPage out;
  PageResult& r = out.result;
  r.site = address.origin();
  r.etag = answer.etag;
  r.last_modified = answer.last_modified;
  if (!answer.ok()) {
    r.kind = PageResult::Kind::kFailed;
    r.reason = answer.error;
    return out;
  }
  if (answer.status == 304) {
    r.kind = PageResult::Kind::kUnchanged;
    return out;
  }
  if (answer.status == 404 || answer.status == 410) {
    r.kind = PageResult::Kind::kGone;
    r.reason = status_reason(answer.status);
    return out;
  }
  if (answer.status < 200 || answer.status >= 300) {
    r.kind = PageResult::Kind::kFailed;
    r.reason = status_reason(answer.status);
    return out;
  }
  const std::string name = file_name(address);
  SniffedType type = sniff_media_type(answer.body, answer.content_type, name);
  if (type.type == MediaType::kUnsupported) {
    r.kind = PageResult::Kind::kFailed;
    r.reason = "Not text: " + type.name + ".";
    return out;
  }
  ExtractLimits limits;
  limits.max_text_chars = kMaxPageTextChars;
  auto extracted = extract_document(ExtractInput{answer.body, answer.content_type, name}, limits);
  if (!extracted.ok() && extracted.error().code == ErrorCode::kUnavailable) {
    out.stopped = true;
    return out;
  }
  if (!extracted.ok()) {
    r.kind = PageResult::Kind::kFailed;
    r.reason = extracted.error().message;
    return out;
  }
  auto doc = std::make_shared<const ExtractedDocument>(std::move(*extracted));
  add_links(address, *doc, link_depth, follow, out);
  if (doc->noindex) {
    r.kind = PageResult::Kind::kSkipped;
    r.reason = "The page asks not to be indexed (robots noindex).";
    return out;
  }
  const std::string whole = render_text(*doc);
  if (is_blank(whole)) {
    r.kind = PageResult::Kind::kFailed;
    r.reason = "No text found on the page.";
    return out;
  }
  r.kind = PageResult::Kind::kRead;
  r.title = clip_title(doc->title);
  r.content_hash = sha256_hex(whole);
  std::unordered_set<uint64_t> seen;
  for (const auto& block : doc->blocks) {
    // Headings stay: they give the chunks under them their context, and cost little.
    if (block.kind == BlockKind::kHeading) continue;
    uint64_t h = block_hash(block);
    if (seen.insert(h).second) r.blocks.push_back(h);
  }
  r.render = [doc](const std::unordered_set<uint64_t>& skip) { return render_text(*doc, &skip); };
  return out;
}

}  // namespace parley
