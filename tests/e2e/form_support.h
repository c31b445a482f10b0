// Sending multipart/form-data as a browser does (the console's file uploads and contact imports):
// parts with a name, an optional file name and type, and their bytes.
#pragma once

#include <string>
#include <vector>

#include "harness.h"

namespace parley::e2e {

struct FormPart {
  std::string name;
  std::string body;
  std::string filename;      // none when empty
  std::string content_type;  // none when empty
};

inline constexpr const char* kFormBoundary = "----ParleyTestBoundary7MA4YWxkTrZu0gW";

inline std::string form_body(const std::vector<FormPart>& parts,
                             const std::string& boundary = kFormBoundary) {
  std::string out;
  for (const auto& p : parts) {
    out += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (!p.filename.empty()) out += "; filename=\"" + p.filename + "\"";
    out += "\r\n";
    if (!p.content_type.empty()) out += "Content-Type: " + p.content_type + "\r\n";
    out += "\r\n" + p.body + "\r\n";
  }
  return out + "--" + boundary + "--\r\n";
}

// POSTs the parts to `path` with a console token.
inline HttpResponse post_form(const Server& server, const std::string& path,
                              const std::string& token, const std::vector<FormPart>& parts) {
  HttpRequest req;
  req.method = "POST";
  req.path = path;
  req.body = form_body(parts);
  req.json_body = false;
  req.headers = {bearer(token),
                 std::string("Content-Type: multipart/form-data; boundary=") + kFormBoundary};
  return server.request(req);
}

}  // namespace parley::e2e
