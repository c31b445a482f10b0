// Files added to an agent's knowledge through the console (POST
// /console/v1/agents/{agentId}/sources/files, multipart/form-data) and `parley admin source
// upload`: PDF, DOCX, Markdown, HTML, text and CSV become `file` sources with their file name and
// title, trained and answered from; unsupported, encrypted, image-only and damaged files are
// refused with their reason and store nothing; a body over the cap is 413 as soon as its headers
// arrive; the plan's training characters hold as for any text.
#include <chrono>
#include <fstream>
#include <thread>

#include "form_support.h"
#include "harness.h"
#include "process.h"
#include "raw_connection.h"
#include "test_documents.h"

namespace parley::e2e {
namespace {

using parley::testing::docx_paragraph;
using parley::testing::make_docx;
using parley::testing::make_pdf;
using parley::testing::PdfOptions;
using parley::testing::PdfPage;

const std::string kPng =
    std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0", 29);

class FileUploads : public SeededServerTest {
 protected:
  const Seed& suite_seed() override {
    return seed("FileUploads", [](const Admin& a) {
      std::string account = a.create_account("starter");
      std::string agent = a.create_agent(account, R"({"showSources": true})");
      return Json{{"account", account},
                  {"agent", agent},
                  {"key", a.create_key(account)},
                  {"editor", create_member(a, account, "editor")["token"]},
                  {"viewer", create_member(a, account, "viewer")["token"]}};
    });
  }
  void SetUp() override {
    SeededServerTest::SetUp();
    editor_ = suite_seed().values["editor"];
    viewer_ = suite_seed().values["viewer"];
  }
  std::string path() const { return "/console/v1/agents/" + agent_ + "/sources/files"; }
  HttpResponse upload(const std::string& filename, const std::string& bytes,
                      const std::string& type = "", const std::string& token = "") const {
    return post_form(*server_, path(), token.empty() ? editor_ : token,
                     {{"file", bytes, filename, type}});
  }
  Json sources() const {
    return server_->get("/api/v1/agents/" + agent_ + "/sources", key_).json();
  }
  // Polls until the agent's training is done; returns the listing.
  Json trained() const {
    Json body;
    for (int i = 0; i < 600; ++i) {
      body = sources();
      if (body["training"]["done"] == true) return body;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ADD_FAILURE() << "training did not finish: " << body.dump();
    return body;
  }
  void expect_refused(const HttpResponse& r, const std::string& reason) const {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_EQ(r.error_message(), reason) << r.body;
  }
  std::string editor_, viewer_;
};

TEST_F(FileUploads, APdfBecomesAFileSourceWithItsTitleAndIsAnsweredFrom) {
  PdfOptions info;
  info.title = "Ferry timetable 2026";
  std::string pdf = make_pdf(
      {{{"Winter crossings", "", "The first ferry to Skye leaves Mallaig at 06:40 every day."}},
       {{"Bicycles travel free of charge on every crossing."}}},
      info);
  auto r = upload("timetable.pdf", pdf, "application/pdf");
  ASSERT_EQ(r.status, 201) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["result"], "created");
  EXPECT_EQ(j["data"]["type"], "file");
  EXPECT_EQ(j["data"]["filename"], "timetable.pdf");
  EXPECT_EQ(j["data"]["title"], "Ferry timetable 2026");
  EXPECT_TRUE(j["data"]["url"].is_null());
  EXPECT_GT(j["data"]["characters"].get<int>(), 80);
  EXPECT_EQ(j["training"]["total"], 1);
  auto listing = trained();
  EXPECT_EQ(listing["data"][0]["status"], "trained") << listing.dump();
  auto chat = server_->post("/api/v1/agents/" + agent_ + "/chat", key_,
                            R"({"message": "When does the first ferry to Skye leave?"})");
  ASSERT_EQ(chat.status, 200) << chat.body;
  EXPECT_NE(chat.json()["reply"].get<std::string>().find("06:40"), std::string::npos) << chat.body;
  EXPECT_EQ(chat.json()["sources"][0]["title"], "Ferry timetable 2026") << chat.body;
}

TEST_F(FileUploads, EveryReadableTypeIsAddedWithTheRightTitle) {
  struct Case {
    std::string filename, bytes, type, title;
  };
  std::vector<Case> cases = {
      {"handbook.docx",
       make_docx(docx_paragraph("Returns", "Heading1") +
                     docx_paragraph("Returns are accepted within 30 days."),
                 "Staff handbook"),
       "", "Staff handbook"},
      {"faq.md", "# Opening hours\n\nWe open at nine on weekdays.\n", "text/markdown",
       "Opening hours"},
      {"page.html",
       "<!doctype html><html><head><title>Prices</title></head><body><main><p>A day pass costs 12 "
       "EUR."
       "</p></main></body></html>",
       "text/html", "Prices"},
      {"notes.txt", "Parking is free after six in the evening.\n", "text/plain", "notes.txt"},
      {"products.csv", "Product,Price\nKayak,450 EUR\nPaddle,35 EUR\n", "text/csv", "products.csv"},
      // The type is decided from the bytes, not the name or the declared type.
      {"scan.bin", make_pdf({{{"Dogs are welcome on deck."}}}), "application/octet-stream",
       "scan.bin"},
  };
  for (const auto& c : cases) {
    auto r = upload(c.filename, c.bytes, c.type);
    ASSERT_EQ(r.status, 201) << c.filename << ": " << r.body;
    EXPECT_EQ(r.json()["data"]["title"], c.title) << c.filename;
    EXPECT_EQ(r.json()["data"]["filename"], c.filename);
  }
  auto listing = trained();
  for (const auto& s : listing["data"]) EXPECT_EQ(s["status"], "trained") << s.dump();
  EXPECT_EQ(listing["training"]["trained"], static_cast<int>(cases.size()));
}

TEST_F(FileUploads, FilesThatCannotBeReadAreRefusedWithTheirReasonAndStoreNothing) {
  expect_refused(upload("logo.png", kPng, "image/png"), "Unsupported file type: image/png.");
  PdfOptions locked;
  locked.encrypted = true;
  expect_refused(upload("secret.pdf", make_pdf({{{"Top secret"}}}, locked), "application/pdf"),
                 "The PDF is encrypted.");
  PdfPage scanned;
  scanned.image = true;
  expect_refused(upload("scan.pdf", make_pdf({scanned}), "application/pdf"),
                 "No text found: the PDF holds only images.");
  auto damaged = upload("broken.pdf", "%PDF-1.4\n1 0 obj << /Type /Catalog", "application/pdf");
  EXPECT_EQ(damaged.status, 400) << damaged.body;
  EXPECT_EQ(damaged.error_message().rfind("The file is damaged", 0), 0u) << damaged.body;
  std::string bomb_docx = parley::testing::make_zip(
      {{"[Content_Types].xml", "<Types/>"},
       {"word/document.xml",
        parley::testing::docx_document_xml(docx_paragraph(std::string(20'000'000, 'a')))}});
  expect_refused(upload("bomb.docx", bomb_docx), "The archive expands too much.");
  EXPECT_TRUE(sources()["data"].empty());
}

TEST_F(FileUploads, APdfMadeToExhaustItsReaderIsRefusedWhileTheNodeAnswers) {
  // A 3 KB file whose forms draw each other a million times: minutes of poppler's CPU and
  // hundreds of MB when read in the node; its child reader is stopped at its CPU budget.
  std::string forms = parley::testing::make_pdf_of_nested_forms(5, 16);
  HttpResponse refused;
  std::thread uploader([&] { refused = upload("forms.pdf", forms, "application/pdf"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto meanwhile = server_->get("/api/v1/agents/" + agent_, key_);
  uploader.join();
  EXPECT_EQ(meanwhile.status, 200) << meanwhile.body;
  expect_refused(refused, "The PDF takes too long to read.");
  EXPECT_TRUE(sources()["data"].empty());
  // The node reads the next file as before.
  auto next = upload("hours.pdf", make_pdf({{{"The ferry leaves at seven."}}}), "application/pdf");
  EXPECT_EQ(next.status, 201) << next.body;
}

TEST_F(FileUploads, ABodyOverTheCapIs413AssoonAsItsHeadersArrive) {
  Server small({}, {"--upload-max-bytes", "2048"}, &suite_seed());
  Connection c(small.port());
  ASSERT_TRUE(
      c.send("POST /console/v1/agents/" + agent_ + "/sources/files HTTP/1.1\r\nHost: x\r\n" +
             bearer(editor_) +
             "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 4096\r\n\r\n"));
  std::string r = c.read_response();  // the body was never sent
  ASSERT_EQ(r.rfind("HTTP/1.1 413", 0), 0u) << r;
  auto e = Json::parse(body_of(r));
  EXPECT_EQ(e["error"]["code"], "payload_too_large");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("2048 bytes"), std::string::npos);
  // Whole, through an ordinary client, the same.
  auto whole = post_form(small, path(), editor_,
                         {{"file", std::string(3000, 'x'), "big.txt", "text/plain"}});
  EXPECT_EQ(whole.status, 413);
  EXPECT_EQ(whole.error_code(), "payload_too_large");
}

TEST_F(FileUploads, ThePlansTrainingCharactersHoldAsForText) {
  server_->admin({"account", "set-limits", account_, R"({"trainingCharacters": 50})"});
  auto r =
      upload("long.txt", std::string(40, 'a') + " " + std::string(40, 'b') + "\n", "text/plain");
  EXPECT_EQ(r.status, 403) << r.body;
  EXPECT_EQ(r.error_code(), "character_limit_exceeded");
  EXPECT_TRUE(sources()["data"].empty());
}

TEST_F(FileUploads, TheRequestMustHoldOneNamedFile) {
  auto viewer = upload("a.txt", "text", "text/plain", viewer_);
  EXPECT_EQ(viewer.status, 403);
  EXPECT_EQ(viewer.error_code(), "forbidden");
  auto nameless = post_form(*server_, path(), editor_, {{"file", "text", "", "text/plain"}});
  EXPECT_EQ(nameless.status, 400);
  EXPECT_NE(nameless.error_message().find("filename"), std::string::npos);
  auto two = post_form(*server_, path(), editor_,
                       {{"file", "a", "a.txt", ""}, {"file", "b", "b.txt", ""}});
  EXPECT_EQ(two.status, 400);
  EXPECT_NE(two.error_message().find("'file'"), std::string::npos);
  auto other =
      post_form(*server_, path(), editor_, {{"file", "a", "a.txt", ""}, {"note", "x", "", ""}});
  EXPECT_EQ(other.status, 400);
  EXPECT_NE(other.error_message().find("'note'"), std::string::npos);
  auto json = server_->post(path(), editor_, R"({"content": "x"})");
  EXPECT_EQ(json.status, 400);
  EXPECT_NE(json.error_message().find("multipart/form-data"), std::string::npos);
  auto path_name = upload("C:\\Users\\ann\\notes.txt", "Opening at nine.", "text/plain");
  ASSERT_EQ(path_name.status, 201) << path_name.body;
  EXPECT_EQ(path_name.json()["data"]["filename"], "notes.txt");
}

TEST_F(FileUploads, TheAdminCommandAddsEachFileAndWaitsForTraining) {
  std::string dir = server_->data_dir();
  std::ofstream(dir + "/guide.md") << "# Guide\n\nLockers cost two euros a day.\n";
  std::ofstream(dir + "/logo.png", std::ios::binary) << kPng;
  std::ofstream(dir + "/prices.pdf", std::ios::binary)
      << make_pdf({{{"Lift pass: 48 EUR a day."}}});
  std::vector<std::string> argv = {
      PARLEY_BINARY, "admin",           "source", "upload",          "--agent", agent_,
      "--file",      dir + "/guide.md", "--file", dir + "/logo.png", "--file",  dir + "/prices.pdf",
      "--wait"};
  auto r = run_process(argv, server_->database_env());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // one file was refused
  auto out = Json::parse(r.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << r.out << r.err;
  ASSERT_EQ(out["data"].size(), 3u) << out;
  EXPECT_EQ(out["data"][0]["result"], "created");
  EXPECT_EQ(out["data"][0]["source"]["title"], "Guide");
  EXPECT_EQ(out["data"][0]["source"]["filename"], "guide.md");
  EXPECT_EQ(out["data"][0]["source"]["status"], "trained");
  EXPECT_EQ(out["data"][1]["result"], "refused");
  EXPECT_EQ(out["data"][1]["error"]["code"], "invalid_request");
  EXPECT_EQ(out["data"][1]["error"]["message"], "Unsupported file type: image/png.");
  EXPECT_EQ(out["data"][2]["source"]["status"], "trained");
  EXPECT_EQ(out["training"]["trained"], 2);
  auto none = run_process(
      {PARLEY_BINARY, "admin", "source", "upload", "--agent", agent_, "--file", dir + "/nope.pdf"},
      server_->database_env());
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.out.find("Cannot read"), std::string::npos) << none.out;
}

}  // namespace
}  // namespace parley::e2e
