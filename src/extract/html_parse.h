// gumbo's parse of a page under a budget of CPU time. gumbo, like the WHATWG algorithm it
// follows, looks through its stack of open elements for many tags, so a page nested N deep costs
// N² (200,000 nested <div>s: about three minutes of a core; a 25 MiB upload: hours). Mirroring the
// tree builder's rules in a scanner to cap the depth beforehand misses some of its ways to nest
// (foreign content, <select>, adoption) and misreads ordinary tag soup, so the parse itself is
// bounded instead: a timer of the thread's CPU time signals the thread when the budget is spent,
// the parse is left by siglongjmp and its blocks (every one gumbo allocates is linked) freed, and
// the page read as text without markup. Ordinary pages parse at 13-16 MB/s, far inside the
// budget. The tree is freed block by block, never by gumbo's recursive destroy (a deep tree
// overflowed the stack). Thread-safe: each parse has its own budget, timer and blocks.
#pragma once

#include <gumbo.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace parley::html {

// CPU time a page's parse may take: base_ms plus ms_per_mib for each MiB of the page. An ordinary
// page takes about 70 ms per MiB (4 ms for 62 KB), so the budget leaves it room four times over.
struct ParseBudget {
  int64_t base_ms = 500;
  int64_t ms_per_mib = 250;
};

// A page's parse and the blocks it holds.
class ParsedPage {
 public:
  ParsedPage();
  ~ParsedPage();
  ParsedPage(const ParsedPage&) = delete;
  ParsedPage& operator=(const ParsedPage&) = delete;

  // The document's root, or nullptr when the parse ran out of budget.
  const GumboNode* root() const { return output_ != nullptr ? output_->root : nullptr; }

  struct Blocks;  // the parse's allocations and budget (html_parse.cpp)

 private:
  friend std::unique_ptr<ParsedPage> parse_within(std::string_view, const ParseBudget&);
  std::unique_ptr<Blocks> blocks_;
  GumboOptions options_;
  GumboOutput* output_ = nullptr;
};

// gumbo's parse of `page` (root() is null when it ran past the budget; every block it allocated
// is freed by then).
std::unique_ptr<ParsedPage> parse_within(std::string_view page, const ParseBudget& budget = {});

// The page's text without markup, for a page whose parse ran out of budget: tags, comments and the
// content of script and style left out, the common entities decoded, one line per block element.
std::string text_without_markup(std::string_view page);

}  // namespace parley::html
