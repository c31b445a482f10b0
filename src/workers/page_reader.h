// What the crawler makes of a page's final answer (after its redirects): a status the crawl
// records (304 unchanged, 404/410 gone, another failure with the reason a person reads), or the
// document read by the extraction library as a file would be (HTML, PDF, DOCX, Markdown, text,
// CSV; other types fail with "Not text: image/png."): its title, its blocks with their hashes
// (the site's template text is left out when the page is recorded), the hash of its whole text,
// its canonical address and the links it holds that the crawl may follow. Also which addresses
// are not pages at all (images, archives, media), skipped without a request.
// Pure functions; thread-safe.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "crawl/url.h"
#include "domain/crawl_pages.h"
#include "workers/page_fetcher.h"

namespace parley {

// Characters of text kept from one page (a source holds at most domain/sources.h's maximum).
inline constexpr size_t kMaxPageTextChars = 1'000'000;

struct ReadPage {
  PageResult result;             // kind, reason, title, blocks, render, hash, validators, links
  std::optional<Url> canonical;  // rel=canonical, when it names another address the crawl allows
  // The document could not be read now (its reader could not start, or the node is stopping):
  // nothing is recorded, the page stays to be read.
  bool stopped = false;
};

// `address`: where the answer came from; `follow`: whether a link may join the frontier (the
// crawl's scope; the depth is checked by the caller through `link_depth`, -1 for no links).
ReadPage read_page_answer(const Url& address, const PageResponse& answer, int64_t link_depth,
                          const std::function<bool(const Url&)>& follow);

// The reason an address is not fetched because its name says it is no page ("Not a page: .png
// files are not read."), or nothing.
std::optional<std::string> not_a_page(const Url& url);

// "The server answered 404." and the like.
std::string status_reason(int64_t status);

}  // namespace parley
