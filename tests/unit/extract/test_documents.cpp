#include "test_documents.h"

#include <zip.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace parley::testing {

namespace {

std::string pdf_string(const std::string& text) {
  std::string out = "(";
  for (char c : text) {
    if (c == '(' || c == ')' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + ")";
}

std::string page_content(const PdfPage& page) {
  std::string s;
  if (page.image) s += "q 100 0 0 100 72 600 cm BI /W 1 /H 1 /CS /G /BPC 8 ID \x80 EI Q\n";
  if (!page.lines.empty()) {
    s += "BT /F1 12 Tf 14 TL 72 720 Td\n";
    for (const std::string& line : page.lines) {
      if (line.empty()) {
        s += "0 -14 Td\n";  // a gap as tall as a line: a new paragraph
      } else {
        s += pdf_string(line) + " Tj T*\n";
      }
    }
    s += "ET\n";
  }
  return s;
}

// The file of `objects` (numbered from 1; the first the catalog), with the document information
// and the encryption dictionary when their numbers are not 0.
std::string write_pdf(const std::vector<std::string>& objects, int info, int encrypt) {
  std::string pdf = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t offset : offsets) {
    char line[24];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
    pdf += line;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R";
  if (info) pdf += " /Info " + std::to_string(info) + " 0 R";
  if (encrypt) {
    pdf += " /Encrypt " + std::to_string(encrypt) + " 0 R";
    pdf += " /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]";
  }
  pdf += " >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

}  // namespace

std::string make_pdf(const std::vector<PdfPage>& pages, const PdfOptions& options) {
  // Objects: 1 catalog, 2 page tree, 3 font, then a page and its content per page, then info
  // and the encryption dictionary.
  std::vector<std::string> objects(3);
  std::string kids;
  for (size_t i = 0; i < pages.size(); ++i) {
    int page_obj = 4 + static_cast<int>(i) * 2;
    kids += std::to_string(page_obj) + " 0 R ";
    objects.push_back(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << "
        "/F1 3 0 R >> >> /Contents " +
        std::to_string(page_obj + 1) + " 0 R >>");
    std::string content = page_content(pages[i]);
    objects.push_back("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content +
                      "\nendstream");
  }
  objects[0] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[1] =
      "<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) + " >>";
  objects[2] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  int info = 0, encrypt = 0;
  if (!options.title.empty()) {
    objects.push_back("<< /Title " + pdf_string(options.title) + " /Producer (parley tests) >>");
    info = static_cast<int>(objects.size());
  }
  if (options.encrypted) {
    std::string o(64, 'A'), u(64, 'B');
    objects.push_back("<< /Filter /Standard /V 1 /R 2 /O <" + o + "> /U <" + u + "> /P -44 >>");
    encrypt = static_cast<int>(objects.size());
  }
  return write_pdf(objects, info, encrypt);
}

std::string make_pdf_of_nested_forms(int depth, int fanout) {
  std::string draw;
  for (int i = 0; i < fanout; ++i) draw += "q /X Do Q ";
  auto stream = [](const std::string& dictionary, const std::string& content) {
    return "<< " + dictionary + " /Length " + std::to_string(content.size()) + " >>\nstream\n" +
           content + "\nendstream";
  };
  // 1 catalog, 2 page tree, 3 font, 4 the page, 5 its content, then the forms from 6.
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
      "/XObject << /X 6 0 R >> >> /Contents 5 0 R >>",
      stream("", "BT /F1 12 Tf 72 720 Td (Forms within forms) Tj ET " + draw)};
  for (int level = 1; level <= depth; ++level) {
    int self = 5 + level;
    std::string resources = level == depth
                                ? "/Font << /F1 3 0 R >>"
                                : "/XObject << /X " + std::to_string(self + 1) + " 0 R >>";
    std::string content = level == depth ? "BT /F1 12 Tf 10 10 Td (leaf) Tj ET" : draw;
    objects.push_back(stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << " + resources + " >>",
        content));
  }
  return write_pdf(objects, 0, 0);
}

std::string make_zip(const std::vector<std::pair<std::string, std::string>>& entries) {
  char path[] = "/tmp/parley_zip_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  int error = 0;
  zip_t* zip = zip_open(path, ZIP_TRUNCATE | ZIP_CREATE, &error);
  if (zip == nullptr) throw std::runtime_error("zip_open failed");
  for (const auto& [name, content] : entries) {
    zip_source_t* source = zip_source_buffer(zip, content.data(), content.size(), 0);
    if (source == nullptr || zip_file_add(zip, name.c_str(), source, ZIP_FL_OVERWRITE) < 0)
      throw std::runtime_error("zip_file_add failed");
  }
  if (zip_close(zip) != 0) throw std::runtime_error("zip_close failed");
  std::string bytes;
  if (FILE* f = std::fopen(path, "rb")) {
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, n);
    std::fclose(f);
  }
  std::remove(path);
  return bytes;
}

std::string docx_document_xml(const std::string& body_xml) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
         "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
         "<w:body>" +
         body_xml + "</w:body></w:document>";
}

std::string make_docx(const std::string& body_xml, const std::string& title,
                      const std::string& styles_xml) {
  std::vector<std::pair<std::string, std::string>> entries = {
      {"[Content_Types].xml",
       "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/"
       "content-types\"><Override PartName=\"/word/document.xml\" ContentType=\"application/"
       "vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>"},
      {"word/document.xml", docx_document_xml(body_xml)},
  };
  if (!title.empty())
    entries.push_back(
        {"docProps/core.xml",
         "<?xml version=\"1.0\"?><cp:coreProperties xmlns:cp=\"http://schemas."
         "openxmlformats.org/package/2006/metadata/core-properties\" xmlns:dc=\"http://"
         "purl.org/dc/elements/1.1/\"><dc:title>" +
             title + "</dc:title></cp:coreProperties>"});
  if (!styles_xml.empty()) entries.push_back({"word/styles.xml", styles_xml});
  return make_zip(entries);
}

std::string docx_paragraph(const std::string& text, const std::string& style) {
  std::string p = "<w:p>";
  if (!style.empty()) p += "<w:pPr><w:pStyle w:val=\"" + style + "\"/></w:pPr>";
  return p + "<w:r><w:t xml:space=\"preserve\">" + text + "</w:t></w:r></w:p>";
}

}  // namespace parley::testing
