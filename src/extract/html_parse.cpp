#include "extract/html_parse.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csetjmp>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>

#include "extract/charset.h"

namespace parley::html {

namespace {

// Every block of one parse, linked so that an abandoned parse frees them all. The header's 16
// bytes keep malloc's alignment for what follows.
struct alignas(16) Block {
  Block* prev;
  Block* next;
};

}  // namespace

struct ParsedPage::Blocks {
  Block blocks{&blocks, &blocks};  // circular, this the sentinel
  sigjmp_buf abandon;
  // Set by the allocator around malloc and free, which the budget's signal must not leave: it
  // marks the budget spent instead, and the allocator leaves the parse when they return.
  volatile sig_atomic_t in_heap = 0;
  volatile sig_atomic_t spent = 0;
  volatile sig_atomic_t done = 0;  // gumbo returned: the signal has nothing to leave
};

namespace {
using Parse = ParsedPage::Blocks;

// The parse running on this thread, for the budget's signal.
thread_local Parse* t_parse = nullptr;

// The signal a parse's CPU timer sends to its own thread when the budget is spent.
int budget_signal() { return SIGRTMIN + 3; }

// Leaves the parse from wherever gumbo is (it holds no lock and calls nothing but the allocator
// and memory and string functions), unless the thread is in malloc or free.
void on_budget_spent(int) {
  Parse* parse = t_parse;
  if (parse == nullptr || parse->done) return;  // the parse ended meanwhile
  if (parse->in_heap) {
    parse->spent = 1;
    return;
  }
  siglongjmp(parse->abandon, 1);
}

void install_budget_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_budget_spent;
    sigemptyset(&action.sa_mask);
    sigaction(budget_signal(), &action, nullptr);
  });
}

void* allocate(void* userdata, size_t size) {
  auto* parse = static_cast<Parse*>(userdata);
  parse->in_heap = 1;
  auto* block = static_cast<Block*>(std::malloc(sizeof(Block) + size));
  if (block != nullptr) {
    block->prev = &parse->blocks;
    block->next = parse->blocks.next;
    parse->blocks.next->prev = block;
    parse->blocks.next = block;
  }
  parse->in_heap = 0;
  if (parse->spent || block == nullptr) siglongjmp(parse->abandon, 1);  // gumbo cannot take a null
  return block + 1;
}

void deallocate(void* userdata, void* ptr) {
  if (ptr == nullptr) return;
  auto* parse = static_cast<Parse*>(userdata);
  parse->in_heap = 1;
  Block* block = static_cast<Block*>(ptr) - 1;
  block->prev->next = block->next;
  block->next->prev = block->prev;
  std::free(block);
  parse->in_heap = 0;
  if (parse->spent) siglongjmp(parse->abandon, 1);
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
// allocator's frames a siglongjmp leaves, so leaving them that way is defined.
GumboOutput* run(Parse* parse, const GumboOptions* options, const char* data, size_t size) {
  if (sigsetjmp(parse->abandon, 1) != 0) return nullptr;
  GumboOutput* output = gumbo_parse_with_options(options, data, size);
  parse->done = 1;
  return output;
}

// A timer of this thread's CPU time that sends budget_signal() to this thread once `ns` are
// spent; disarmed and deleted when it goes. Without one (timer_create refused), nothing bounds
// the parse.
class CpuTimer {
 public:
  explicit CpuTimer(int64_t ns) {
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = budget_signal();
    event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer_) != 0) return;
    armed_ = true;
    itimerspec when{};
    when.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    when.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
    timer_settime(timer_, 0, &when, nullptr);
  }
  ~CpuTimer() {
    if (!armed_) return;
    itimerspec off{};
    timer_settime(timer_, 0, &off, nullptr);
    timer_delete(timer_);
  }
  CpuTimer(const CpuTimer&) = delete;
  CpuTimer& operator=(const CpuTimer&) = delete;

 private:
  timer_t timer_{};
  bool armed_ = false;
};

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
      append_utf8(out, code);
      at = i;
      return;
    }
  }
  out.push_back('&');
  ++at;
}

}  // namespace

ParsedPage::ParsedPage() : blocks_(std::make_unique<Blocks>()), options_(kGumboDefaultOptions) {}

// Every block is linked, so the tree goes by freeing them: gumbo_destroy_output frees it
// recursively, one stack frame per level, which a page nested 400,000 deep (cheap to parse)
// overflows.
ParsedPage::~ParsedPage() { free_all(*blocks_); }

std::unique_ptr<ParsedPage> parse_within(std::string_view page, const ParseBudget& budget) {
  install_budget_handler();
  auto parsed = std::make_unique<ParsedPage>();
  Parse& parse = *parsed->blocks_;
  GumboOptions& options = parsed->options_;
  options.max_errors = 0;  // parse errors are not read; recording them costs time and memory
  options.allocator = allocate;
  options.deallocator = deallocate;
  options.userdata = &parse;
  const int64_t mib = static_cast<int64_t>(page.size() >> 20);
  t_parse = &parse;
  {
    CpuTimer timer((budget.base_ms + mib * budget.ms_per_mib) * 1'000'000);
    parsed->output_ = run(&parse, &options, page.data(), page.size());
    parse.done = 1;  // abandoned too: a signal from here on returns
  }
  t_parse = nullptr;
  if (parsed->output_ == nullptr) free_all(parse);
  return parsed;
}

std::string text_without_markup(std::string_view page) {
  std::string out;
  out.reserve(page.size() / 2);
  size_t at = 0;
  bool no_tag_end = false;
  bool unclosed[2] = {false, false};  // a <script>, a <style> without an end tag after it
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
    } else if (!no_tag_end && (((next | 0x20) >= 'a' && (next | 0x20) <= 'z') || next == '/')) {
      size_t name_at = at + (next == '/' ? 2 : 1);
      size_t end = page.find('>', name_at);
      if (end == std::string_view::npos) {
        no_tag_end = true;  // no '>' from here on: every later '<' is text
        continue;
      }
      if (breaks_line(page, name_at)) out.push_back('\n');
      at = end + 1;
      // The content of script and style is not text, up to their end tag; once one has none,
      // later ones are not looked for again (each search would run to the page's end).
      for (size_t r = 0; r < 2; ++r) {
        std::string_view raw = r == 0 ? "script" : "style";
        if (next == '/' || unclosed[r] || !starts_with_name(page, name_at, raw)) continue;
        size_t close = page.find("</", at);
        while (close != std::string_view::npos && !starts_with_name(page, close + 2, raw))
          close = page.find("</", close + 2);
        if (close == std::string_view::npos)
          unclosed[r] = true;
        else
          at = close;
      }
    } else {
      out.push_back(c);
      ++at;
    }
  }
  return out;
}

}  // namespace parley::html
