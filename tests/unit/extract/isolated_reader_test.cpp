// PDFs read in a child process (the unit tests' main sets that up, as the server's does): the
// same document as in the calling thread, the reader's own errors passed on, and a file made to
// exhaust poppler stopped at its CPU budget or its memory budget with a message a person reads.
#include "extract/isolated_reader.h"

#include <gtest/gtest.h>

#include "extract/extract.h"
#include "extract/pdf.h"
#include "test_documents.h"

namespace parley {
namespace {

using testing::make_pdf;
using testing::PdfPage;

TEST(IsolatedReader, ReadsTheDocumentTheCallingThreadWouldRead) {
  std::string pdf = make_pdf({PdfPage{{"Opening hours", "", "The museum opens at 9 \xC3\xA0 17."}},
                              PdfPage{{"Tickets cost 12 EUR."}}},
                             {.title = "Visitor guide"});
  auto here = extract_pdf(pdf, {});
  auto there = read_pdf(pdf, {});
  ASSERT_TRUE(here.ok()) << here.error().message;
  ASSERT_TRUE(there.ok()) << there.error().message;
  EXPECT_EQ(there->title, "Visitor guide");
  ASSERT_EQ(there->blocks.size(), here->blocks.size());
  for (size_t i = 0; i < here->blocks.size(); ++i) {
    EXPECT_EQ(there->blocks[i].kind, here->blocks[i].kind);
    EXPECT_EQ(there->blocks[i].level, here->blocks[i].level);
    EXPECT_EQ(there->blocks[i].text, here->blocks[i].text);
  }
}

TEST(IsolatedReader, TheReadersErrorsComeBackAsItSaidThem) {
  auto locked = read_pdf(make_pdf({PdfPage{{"Secret"}}}, {.title = "", .encrypted = true}), {});
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(locked.error().message, "The PDF is encrypted.");
  auto damaged = read_pdf("%PDF-1.4\nnothing else", {});
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.error().message, "The file is damaged: it cannot be read as a PDF.");
}

TEST(IsolatedReader, TheChildCutsTheTextToTheLimit) {
  ExtractLimits limits;
  limits.max_text_chars = 12;
  auto doc = read_pdf(make_pdf({PdfPage{{"First page"}}, PdfPage{{"Second page"}}}), limits);
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_EQ(doc->blocks.size(), 1u);
  EXPECT_EQ(doc->blocks[0].text, "First page");
}

TEST(IsolatedReader, FormsDrawnWithinFormsAreStoppedAtTheCpuBudget) {
  // 16^5 words: about two and a half minutes of poppler's CPU here when read in the thread.
  std::string pdf = testing::make_pdf_of_nested_forms(5, 16);
  ASSERT_LT(pdf.size(), 4096u);
  ExtractLimits limits;
  limits.reader_cpu_ms = 300;
  auto doc = read_pdf(pdf, limits);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(doc.error().message, "The PDF takes too long to read.");
  // extract_document, the crawler's and the uploads' entry, reads it the same way.
  auto via_entry = extract_document({pdf, "application/pdf", "forms.pdf"}, limits);
  ASSERT_FALSE(via_entry.ok());
  EXPECT_EQ(via_entry.error().message, "The PDF takes too long to read.");
}

TEST(IsolatedReader, AReadingPastTheMemoryBudgetIsStopped) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no RLIMIT_AS";
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no RLIMIT_AS";
#endif
  std::string pdf = testing::make_pdf_of_nested_forms(5, 16);
  ExtractLimits limits;
  limits.reader_cpu_ms = 60'000;
  // An allocation fails in poppler's C++ (std::bad_alloc) or in its allocator, which says "Out of
  // memory" and aborts: which one depends on the budget.
  for (size_t mib : {24, 64}) {
    limits.reader_memory_bytes = mib << 20;
    auto doc = read_pdf(pdf, limits);
    ASSERT_FALSE(doc.ok()) << mib;
    EXPECT_EQ(doc.error().code, ErrorCode::kInvalidRequest) << mib;
    EXPECT_EQ(doc.error().message, "The PDF needs too much memory to read.") << mib;
  }
}

}  // namespace
}  // namespace parley
