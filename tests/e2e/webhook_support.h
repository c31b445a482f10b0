// What the webhook end-to-end suites share: the receiver's own check of a Standard Webhooks
// signature, counting a webhook-id's requests, and verifying captured deliveries with the
// reference library (tests/node/verify.mjs, Node.js).
#pragma once

#include <filesystem>
#include <fstream>

#include "core/crypto.h"
#include "harness.h"
#include "https_receiver.h"

namespace parley::e2e {

// The signature check a receiver does, written here independently of the server's signer.
inline bool signature_valid(const std::string& secret, const CapturedRequest& r) {
  auto key = base64_decode(secret.substr(6));
  if (!key) return false;
  std::string signed_text =
      r.headers.at("webhook-id") + "." + r.headers.at("webhook-timestamp") + "." + r.body;
  auto mac = hmac_sha256(*key, signed_text);
  std::string expected =
      "v1," + base64_encode(std::string(reinterpret_cast<const char*>(mac.data()), mac.size()));
  return constant_time_equal(r.headers.at("webhook-signature"), expected);
}

inline int count_id(const std::vector<CapturedRequest>& rs, const std::string& id) {
  int n = 0;
  for (auto& r : rs)
    if (r.headers.count("webhook-id") && r.headers.at("webhook-id") == id) ++n;
  return n;
}

// What the reference library said about captured deliveries.
struct ReferenceCheck {
  bool ran = false;  // false: Node.js or the library could not be installed (offline)
  int exit_code = -1;
  std::string output;
};

// Verifies each request with `secret` using the Standard Webhooks reference library; `scratch` is
// a folder for the input file.
inline ReferenceCheck verify_with_reference_library(const std::string& secret,
                                                    const std::vector<CapturedRequest>& requests,
                                                    const std::string& scratch) {
  namespace fs = std::filesystem;
  std::string node_dir = (fs::path(PARLEY_TEST_DATA_DIR).parent_path() / "node").string();
  if (!fs::exists(node_dir + "/node_modules/standardwebhooks")) {
    run_process({"/bin/sh", "-c",
                 "cd '" + node_dir + "' && npm install --no-audit --no-fund >/dev/null 2>&1"},
                {});
  }
  ReferenceCheck out;
  if (!fs::exists(node_dir + "/node_modules/standardwebhooks")) return out;
  Json captured = Json::array();
  for (const auto& r : requests) {
    captured.push_back({{"secret", secret},
                        {"id", r.headers.at("webhook-id")},
                        {"timestamp", r.headers.at("webhook-timestamp")},
                        {"signature", r.headers.at("webhook-signature")},
                        {"body", r.body}});
  }
  std::string file = scratch + "/captured.json";
  std::ofstream(file) << captured.dump();
  auto node =
      run_process({"/bin/sh", "-c", "node '" + node_dir + "/verify.mjs' '" + file + "'"}, {});
  out.ran = true;
  out.exit_code = node.exit_code;
  out.output = node.out + node.err;
  return out;
}

}  // namespace parley::e2e
