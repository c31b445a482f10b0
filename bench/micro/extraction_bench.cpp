// Document extraction (src/extract/): HTML pages per second of CPU (target ≥ 20 MB/s per core),
// a 300-page PDF (target < 5 s), and a DOCX, Markdown and CSV file of comparable size. The
// documents are made here (the PDF and DOCX by tests/unit/extract/test_documents.h). Figures in
// bench/results/extraction.md.
#include <benchmark/benchmark.h>
#include <gumbo.h>

#include <cstdlib>
#include <string>

#include "extract/extract.h"
#include "extract/html_parse.h"
#include "extract/isolated_reader.h"
#include "test_documents.h"

namespace parley {
namespace {

// A museum site's page: head, scripts, navigation, cookie banner, header and footer around a
// <main> of headings, paragraphs with inline markup and links, lists and a price table; about
// `sections` × 1.3 KB.
std::string html_page(int sections) {
  std::string p =
      "<!doctype html><html lang=en><head><meta charset=utf-8><title>City Museum - Visit</title>"
      "<link rel=canonical href=https://museum.example/visit><link rel=stylesheet href=/s.css>"
      "<script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)}gtag('js',new "
      "Date());</script><style>body{font:16px sans-serif}.nav a{color:#333}</style></head><body>"
      "<div class=cookie role=dialog aria-hidden=true>We use cookies. <button>Accept</button></div>"
      "<header><a href=/><img src=/logo.svg alt=Logo></a><nav class=nav><ul><li><a href=/visit>"
      "Visit</a><li><a href=/exhibitions>Exhibitions</a><li><a href=/shop>Shop</a><li><a "
      "href=/about>About us</a></ul></nav></header><main>";
  for (int i = 0; i < sections; ++i) {
    std::string n = std::to_string(i);
    p += "<section id=s" + n + "><h2>Gallery " + n +
         " &amp; collection</h2><p>The <strong>gallery " + n +
         "</strong> shows paintings from the <em>17th century</em>, with works by <a href=/a/" + n +
         ">Dutch masters</a> and their students. Guided tours start every hour from the main "
         "hall; the tour takes about forty minutes and is included in the ticket.</p><ul><li>Open "
         "Tuesday to Sunday, 10:00&ndash;18:00</li><li>Audio guide in six languages</li><li>Step-"
         "free access through the garden entrance</li></ul><table><tr><th>Adult ticket</th><td>"
         "15 EUR</td></tr><tr><th>Student ticket</th><td>9 EUR</td></tr><tr><th>Children under 12"
         "</th><td>free</td></tr></table><p>Photography without flash is allowed in gallery " +
         n +
         ". Large bags must be left in the lockers near the entrance, which take a 1 EUR coin "
         "that is returned.</p></section>";
  }
  p += "</main><aside>Related: <a href=/events>Events</a></aside><footer><p>City Museum, Main "
       "Street 1</p><p>&copy; 2024</p></footer><script src=/app.js></script></body></html>";
  return p;
}

void BM_ExtractHtml(benchmark::State& state) {
  std::string page = html_page(static_cast<int>(state.range(0)));
  size_t chars = 0;
  for (auto _ : state) {
    auto doc = extract_document({page, "text/html; charset=utf-8", ""});
    if (!doc.ok()) std::abort();
    chars = render_text(*doc).size();
    benchmark::DoNotOptimize(chars);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
  state.counters["page_kb"] = static_cast<double>(page.size()) / 1024;
  state.counters["text_kb"] = static_cast<double>(chars) / 1024;
}
BENCHMARK(BM_ExtractHtml)->Arg(10)->Arg(80)->Arg(800)->Unit(benchmark::kMillisecond);

// gumbo's parse alone on the same page: the ceiling of BM_ExtractHtml.
void BM_GumboParseOnly(benchmark::State& state) {
  std::string page = html_page(static_cast<int>(state.range(0)));
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  for (auto _ : state) {
    GumboOutput* output = gumbo_parse_with_options(&options, page.data(), page.size());
    benchmark::DoNotOptimize(output->root);
    gumbo_destroy_output(&options, output);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_GumboParseOnly)->Arg(80)->Unit(benchmark::kMillisecond);

// A hostile page: N nested <div>s around one sentence. gumbo's parse costs N² (20,000: 1.3 s;
// 200,000: about three minutes); past its budget (0.5 s + 0.25 s per MiB of CPU) the parse is
// abandoned and the page read as text.
void BM_ExtractDeeplyNestedHtml(benchmark::State& state) {
  const auto depth = static_cast<size_t>(state.range(0));
  std::string page;
  page.reserve(depth * 11 + 16);
  for (size_t i = 0; i < depth; ++i) page += "<div>";
  page += "deep text";
  for (size_t i = 0; i < depth; ++i) page += "</div>";
  for (auto _ : state) {
    auto doc = extract_document({page, "text/html; charset=utf-8", ""});
    if (!doc.ok() || doc->blocks.empty()) std::abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_ExtractDeeplyNestedHtml)->Arg(20'000)->Arg(200'000)->Unit(benchmark::kMillisecond);

// The same parse through html::parse_within: a timer of the thread's CPU time, and an allocator
// that links every block.
void BM_GumboParseWithinBudget(benchmark::State& state) {
  std::string page = html_page(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(html::parse_within(page)->root());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_GumboParseWithinBudget)->Arg(80)->Unit(benchmark::kMillisecond);

// The same page in Windows-1252 with no declaration: ICU's detector and converter first.
void BM_ExtractHtmlDetectedCharset(benchmark::State& state) {
  std::string page = html_page(80);
  page.replace(page.find("<meta charset=utf-8>"), 20, "");
  for (size_t at = page.find("Main"); at != std::string::npos; at = page.find("Main", at + 5))
    page.replace(at, 4, "M\xE4in");
  for (auto _ : state) {
    auto doc = extract_document({page, "text/html", ""});
    if (!doc.ok()) std::abort();
    benchmark::DoNotOptimize(doc->blocks.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_ExtractHtmlDetectedCharset)->Unit(benchmark::kMillisecond);

std::string pdf_of(int pages) {
  std::vector<testing::PdfPage> all;
  for (int p = 0; p < pages; ++p) {
    testing::PdfPage page;
    page.lines.push_back("Chapter " + std::to_string(p + 1));
    page.lines.push_back("");
    for (int l = 0; l < 44; ++l)
      page.lines.push_back("Line " + std::to_string(l) + " of page " + std::to_string(p + 1) +
                           ": the museum's collection holds paintings, prints and drawings.");
    all.push_back(std::move(page));
  }
  return testing::make_pdf(all, {.title = "Collection catalogue", .encrypted = false});
}

void BM_ExtractPdf(benchmark::State& state) {
  std::string pdf = pdf_of(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto doc = extract_document({pdf, "application/pdf", "catalogue.pdf"});
    if (!doc.ok()) std::abort();
    benchmark::DoNotOptimize(doc->blocks.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * pdf.size()));
  state.counters["pages"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_ExtractPdf)->Arg(1)->Arg(300)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same through a child process of this program, as a node reads a PDF: the child's start
// (posix_spawn, the dynamic loader, its limits) and the answer's copy, on top of the reading.
void BM_ExtractPdfInChildProcess(benchmark::State& state) {
  std::string pdf = pdf_of(static_cast<int>(state.range(0)));
  read_pdfs_in_child_processes();
  for (auto _ : state) {
    auto doc = extract_document({pdf, "application/pdf", "catalogue.pdf"});
    if (!doc.ok()) std::abort();
    benchmark::DoNotOptimize(doc->blocks.size());
  }
  read_pdfs_in_child_processes("");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * pdf.size()));
  state.counters["pages"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_ExtractPdfInChildProcess)
    ->Arg(1)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ExtractDocx(benchmark::State& state) {
  std::string body;
  for (int i = 0; i < 2000; ++i) {
    if (i % 20 == 0)
      body += testing::docx_paragraph("Section " + std::to_string(i / 20), "Heading1");
    body += testing::docx_paragraph("Paragraph " + std::to_string(i) +
                                    ": guided tours start every hour from the main hall and take "
                                    "about forty minutes, included in the ticket.");
  }
  std::string docx = testing::make_docx(body, "Guide");
  for (auto _ : state) {
    auto doc = extract_document({docx, "", "guide.docx"});
    if (!doc.ok()) std::abort();
    benchmark::DoNotOptimize(doc->blocks.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * docx.size()));
}
BENCHMARK(BM_ExtractDocx)->Unit(benchmark::kMillisecond);

void BM_ExtractMarkdownAndCsv(benchmark::State& state) {
  std::string md, csv = "Product,Price,Colour,Size\n";
  for (int i = 0; i < 2000; ++i) {
    if (i % 20 == 0) md += "## Section " + std::to_string(i / 20) + "\n\n";
    md += "Paragraph **" + std::to_string(i) +
          "** with a [link](/x) and `code`.\n\n- item one\n"
          "- item two\n\n";
    csv += "Mug " + std::to_string(i) + ",\"4,50 EUR\",blue,M\n";
  }
  for (auto _ : state) {
    auto a = extract_document({md, "text/markdown", ""});
    auto b = extract_document({csv, "text/csv", ""});
    if (!a.ok() || !b.ok()) std::abort();
    benchmark::DoNotOptimize(a->blocks.size() + b->blocks.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * (md.size() + csv.size())));
}
BENCHMARK(BM_ExtractMarkdownAndCsv)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace parley
