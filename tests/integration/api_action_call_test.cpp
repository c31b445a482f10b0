// API action calls over real HTTPS to a loopback receiver, and the public-address guard refusing
// internal addresses: those of the URL and those its host resolves to when the call is made.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/api_actions.h"
#include "https_receiver.h"

namespace parley::e2e {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Answers each name from a table the test sets; a name not in it does not resolve.
class TableResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string& host) override {
    std::lock_guard lock(mu_);
    ++calls_[host];
    auto it = names_.find(host);
    if (it == names_.end()) return ApiError::invalid("does not resolve");
    std::vector<IpAddress> out;
    for (const auto& text : it->second) out.push_back(*parse_ip(text));
    return out;
  }
  void set(const std::string& host, std::vector<std::string> addresses) {
    std::lock_guard lock(mu_);
    names_[host] = std::move(addresses);
  }
  int calls(const std::string& host) {
    std::lock_guard lock(mu_);
    return calls_[host];
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<std::string>> names_;
  std::map<std::string, int> calls_;
};

class ApiActionCall : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tpl[] = "/tmp/parley-action-tls-XXXXXX";
    dir_ = mkdtemp(tpl);
    make_self_signed_certificate(dir_);
    receiver_ = new HttpsReceiver(dir_ + "/cert.pem", dir_ + "/key.pem");
  }
  static void TearDownTestSuite() {
    delete receiver_;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ApiAction action(const std::string& url, const std::string& method = "GET") {
    ApiAction a;
    a.name = "lookup";
    a.method = method;
    a.url = url;
    a.parameters = {{"orderId", "", true}, {"note", "", false}};
    a.headers = {{"X-Api-Key", "k-123"}};
    return a;
  }
  std::string local(const std::string& path) {
    return "https://127.0.0.1:" + std::to_string(receiver_->port()) + path;
  }

  static std::string dir_;
  static HttpsReceiver* receiver_;
  SystemResolver resolver_;
};
std::string ApiActionCall::dir_;
HttpsReceiver* ApiActionCall::receiver_ = nullptr;

TEST_F(ApiActionCall, CallsTheActionAndReturnsStatusAndBody) {
  ApiActionCaller caller(resolver_, {true, read_file(dir_ + "/cert.pem"), 5000, 16384});
  auto result = nlohmann::json::parse(
      caller.call(action(local("/orders/{orderId}"), "POST"), R"({"orderId":"A1","note":"hi"})"));
  ASSERT_TRUE(result.contains("status")) << result.dump();
  EXPECT_EQ(result["status"], 200);
  auto got = receiver_->received_on("/orders/A1");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].headers["x-api-key"], "k-123");
  EXPECT_EQ(nlohmann::json::parse(got[0].body), (nlohmann::json{{"note", "hi"}}));
}

TEST_F(ApiActionCall, TheGuardRefusesInternalAddresses) {
  ApiActionCaller caller(resolver_, {false, read_file(dir_ + "/cert.pem"), 5000, 16384});
  size_t before = receiver_->received().size();
  for (std::string url : {local("/orders/{orderId}"), std::string("https://localhost/x"),
                          std::string("https://169.254.169.254/latest/meta-data"),
                          std::string("https://10.0.0.1/x"), std::string("http://example.com/x")}) {
    auto result = nlohmann::json::parse(caller.call(action(url), R"({"orderId":"A1"})"));
    ASSERT_TRUE(result.contains("error")) << url << " " << result.dump();
    EXPECT_NE(result["error"].get<std::string>().find("refused"), std::string::npos)
        << result.dump();
  }
  EXPECT_EQ(receiver_->received().size(), before);
}

TEST_F(ApiActionCall, AMissingRequiredArgumentIsReportedToTheModel) {
  ApiActionCaller caller(resolver_, {true, read_file(dir_ + "/cert.pem"), 5000, 16384});
  auto result = nlohmann::json::parse(caller.call(action(local("/orders/{orderId}")), "{}"));
  EXPECT_EQ(result["error"], "'orderId' is required.");
}

TEST_F(ApiActionCall, AHostResolvingToAPrivateAddressWhenCalledIsRefused) {
  // The names look public; what they resolve to when the action runs is not (DNS rebinding).
  TableResolver resolver;
  resolver.set("orders.example.com", {"127.0.0.1"});
  resolver.set("mixed.example.com", {"93.184.216.34", "10.0.0.7"});
  ApiActionCaller caller(resolver, {false, read_file(dir_ + "/cert.pem"), 5000, 16384});
  size_t before = receiver_->received().size();
  std::string port = std::to_string(receiver_->port());
  for (std::string host : {"orders.example.com", "mixed.example.com"}) {
    auto result = nlohmann::json::parse(
        caller.call(action("https://" + host + ":" + port + "/orders/{orderId}"),
                    R"({"orderId":"A1"})"));
    EXPECT_EQ(result, (nlohmann::json{
                          {"error", "The action's address is refused: it is not a public address."}}))
        << host;
    EXPECT_EQ(resolver.calls(host), 1) << host;
  }
  EXPECT_EQ(receiver_->received().size(), before);
}

TEST_F(ApiActionCall, TheCallConnectsOnlyToTheAddressItChecked) {
  // The receiver listens on 127.0.0.1 only. The system resolves localhost there, but the call
  // goes to the address the guard was given and checked, whatever the system would answer.
  TableResolver resolver;
  ApiActionCaller caller(resolver, {true, read_file(dir_ + "/cert.pem"), 5000, 16384});
  std::string url = "https://localhost:" + std::to_string(receiver_->port()) + "/pinned/{orderId}";
  resolver.set("localhost", {"127.0.0.2"});
  auto missed = nlohmann::json::parse(caller.call(action(url), R"({"orderId":"A1"})"));
  EXPECT_EQ(missed, (nlohmann::json{{"error", "The action could not be reached."}}));
  EXPECT_TRUE(receiver_->received_on("/pinned/A1").empty());
  resolver.set("localhost", {"127.0.0.1"});
  auto reached = nlohmann::json::parse(caller.call(action(url), R"({"orderId":"A1"})"));
  EXPECT_EQ(reached["status"], 200) << reached.dump();
  EXPECT_EQ(receiver_->received_on("/pinned/A1").size(), 1u);
  EXPECT_EQ(resolver.calls("localhost"), 2);
}

}  // namespace
}  // namespace parley::e2e
