#include "extract/html_parse.h"

#include <csetjmp>
#include <cstdlib>
#include <ctime>
#include <memory>

namespace parley::html {

namespace {

int64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// Every block of one parse, linked so that an abandoned parse frees them all. The header's 16
// bytes keep malloc's alignment for what follows.
struct alignas(16) Block {
  Block* prev;
  Block* next;
};

}  // namespace

struct ParsedPage::Blocks {
  Block blocks{&blocks, &blocks};  // circular, this the sentinel
  int64_t deadline_ns = 0;
  unsigned calls = 0;
  std::jmp_buf abandon;
};

namespace {
using Parse = ParsedPage::Blocks;

// How often (in allocations) the CPU clock is read: a parse allocates at least once per tag.
constexpr unsigned kCheckEvery = 64;

void* allocate(void* userdata, size_t size) {
  auto* parse = static_cast<Parse*>(userdata);
  if (++parse->calls % kCheckEvery == 0 && thread_cpu_ns() > parse->deadline_ns)
    std::longjmp(parse->abandon, 1);
  auto* block = static_cast<Block*>(std::malloc(sizeof(Block) + size));
  if (block == nullptr) std::longjmp(parse->abandon, 1);  // gumbo cannot take a null
  block->prev = &parse->blocks;
  block->next = parse->blocks.next;
  parse->blocks.next->prev = block;
  parse->blocks.next = block;
  return block + 1;
}

void deallocate(void*, void* ptr) {
  if (ptr == nullptr) return;
  Block* block = static_cast<Block*>(ptr) - 1;
  block->prev->next = block->next;
  block->next->prev = block->prev;
  std::free(block);
}

void free_all(Parse& parse) {
  for (Block* b = parse.blocks.next; b != &parse.blocks;) {
    Block* next = b->next;
    std::free(b);
    b = next;
  }
  parse.blocks.next = parse.blocks.prev = &parse.blocks;
}

// The parse proper. No object with a destructor lives in this frame, nor in gumbo's or the
// allocator's frames a longjmp leaves, so leaving them by longjmp is defined.
GumboOutput* run(Parse* parse, const GumboOptions* options, const char* data, size_t size) {
  if (setjmp(parse->abandon) != 0) return nullptr;
  return gumbo_parse_with_options(options, data, size);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c; }

bool starts_with_name(std::string_view page, size_t at, std::string_view name) {
  if (page.size() - at < name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (lower(page[at + i]) != name[i]) return false;
  size_t end = at + name.size();
  return end == page.size() || !((page[end] | 0x20) >= 'a' && (page[end] | 0x20) <= 'z');
}

// Block elements whose tags end a line of the text.
bool breaks_line(std::string_view page, size_t name_at) {
  for (std::string_view name : {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6",
                                "section", "article", "table", "ul", "ol", "pre", "blockquote"})
    if (starts_with_name(page, name_at, name)) return true;
  return false;
}

void append_entity(std::string_view page, size_t& at, std::string& out) {
  static constexpr std::pair<std::string_view, std::string_view> kNamed[] = {
      {"&amp;", "&"},   {"&lt;", "<"},   {"&gt;", ">"},
      {"&quot;", "\""}, {"&apos;", "'"}, {"&nbsp;", " "}};
  for (const auto& [entity, text] : kNamed) {
    if (page.compare(at, entity.size(), entity) == 0) {
      out.append(text);
      at += entity.size();
      return;
    }
  }
  if (page.compare(at, 2, "&#") == 0) {
    size_t i = at + 2;
    bool hex = i < page.size() && (page[i] == 'x' || page[i] == 'X');
    if (hex) ++i;
    uint32_t code = 0;
    size_t digits = 0;
    for (; i < page.size() && digits < 7; ++i, ++digits) {
      char c = lower(page[i]);
      int d = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) break;
      code = code * (hex ? 16 : 10) + static_cast<uint32_t>(d);
    }
    if (digits > 0 && code > 0 && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF)) {
      if (i < page.size() && page[i] == ';') ++i;
      if (code < 0x80) {
        out.push_back(static_cast<char>(code));
      } else if (code < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (code >> 6)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      } else if (code < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (code >> 12)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      } else {
        out.push_back(static_cast<char>(0xF0 | (code >> 18)));
        out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      }
      at = i;
      return;
    }
  }
  out.push_back('&');
  ++at;
}

}  // namespace

ParsedPage::ParsedPage() : blocks_(std::make_unique<Blocks>()), options_(kGumboDefaultOptions) {}

ParsedPage::~ParsedPage() {
  if (output_ != nullptr) gumbo_destroy_output(&options_, output_);
  free_all(*blocks_);  // what gumbo did not free itself (nothing, after a whole parse)
}

std::unique_ptr<ParsedPage> parse_within(std::string_view page, const ParseBudget& budget) {
  auto parsed = std::make_unique<ParsedPage>();
  Parse& parse = *parsed->blocks_;
  const int64_t mib = static_cast<int64_t>(page.size() >> 20);
  parse.deadline_ns = thread_cpu_ns() + (budget.base_ms + mib * budget.ms_per_mib) * 1'000'000;
  GumboOptions& options = parsed->options_;
  options.max_errors = 0;  // parse errors are not read; recording them costs time and memory
  options.allocator = allocate;
  options.deallocator = deallocate;
  options.userdata = &parse;
  parsed->output_ = run(&parse, &options, page.data(), page.size());
  if (parsed->output_ == nullptr) free_all(parse);
  return parsed;
}

std::string text_without_markup(std::string_view page) {
  std::string out;
  out.reserve(page.size() / 2);
  size_t at = 0;
  while (at < page.size()) {
    char c = page[at];
    if (c == '&') {
      append_entity(page, at, out);
      continue;
    }
    if (c != '<' || at + 1 >= page.size()) {
      out.push_back(c);
      ++at;
      continue;
    }
    char next = page[at + 1];
    if (page.compare(at, 4, "<!--") == 0) {
      size_t end = page.find("-->", at + 4);
      at = end == std::string_view::npos ? page.size() : end + 3;
    } else if (next == '!' || next == '?') {
      size_t end = page.find('>', at + 2);
      at = end == std::string_view::npos ? page.size() : end + 1;
    } else if (((next | 0x20) >= 'a' && (next | 0x20) <= 'z') || next == '/') {
      size_t name_at = at + (next == '/' ? 2 : 1);
      size_t end = page.find('>', name_at);
      if (end == std::string_view::npos) break;
      if (breaks_line(page, name_at)) out.push_back('\n');
      at = end + 1;
      // The content of script and style is not text (up to their end tag, when there is one).
      for (std::string_view raw : {"script", "style"}) {
        if (next != '/' && starts_with_name(page, name_at, raw)) {
          size_t close = page.find("</", at);
          while (close != std::string_view::npos && !starts_with_name(page, close + 2, raw))
            close = page.find("</", close + 2);
          if (close != std::string_view::npos) at = close;
        }
      }
    } else {
      out.push_back(c);
      ++at;
    }
  }
  return out;
}

}  // namespace parley::html
