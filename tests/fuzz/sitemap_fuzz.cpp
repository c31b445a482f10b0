// Fuzzes the sitemap reader (pugixml, the text format, gzip inflation) and gunzip alone. Checks
// that a bad document is an error and never a crash, that the entry cap and the inflation cap
// hold, and that every entry read has a location without surrounding spaces.
#include <cstdint>
#include <string>
#include <string_view>

#include "crawl/sitemap.h"
#include "fuzz_check.h"

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  std::string_view input(reinterpret_cast<const char*>(data), size);

  constexpr size_t kMaxEntries = 100;
  auto sitemap = parse_sitemap(input, kMaxEntries);
  if (sitemap.ok()) {
    FUZZ_CHECK(sitemap->pages.size() <= kMaxEntries);
    FUZZ_CHECK(sitemap->sitemaps.size() <= kMaxEntries);
    FUZZ_CHECK(sitemap->pages.empty() || sitemap->sitemaps.empty());
    for (const auto& page : sitemap->pages) {
      FUZZ_CHECK(!page.loc.empty() && !is_space(page.loc.front()) && !is_space(page.loc.back()));
      if (page.lastmod) FUZZ_CHECK(!page.lastmod->empty());
    }
    for (const auto& loc : sitemap->sitemaps) FUZZ_CHECK(!loc.empty());
  } else {
    FUZZ_CHECK(sitemap.error().code == ErrorCode::kInvalidRequest);
    FUZZ_CHECK(!sitemap.error().message.empty());
  }

  constexpr size_t kCap = 1 << 16;
  auto inflated = gunzip(input, kCap);
  if (inflated.ok()) {
    FUZZ_CHECK(inflated->size() <= kCap);
    FUZZ_CHECK(looks_gzipped(input));
  }
  return 0;
}
