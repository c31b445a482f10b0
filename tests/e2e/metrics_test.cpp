// GET /metrics: Prometheus text with requests by route pattern and status, latency histograms,
// connections, requests in flight and process figures; no key needed, no id in any label.
#include <chrono>
#include <regex>
#include <thread>

#include "harness.h"

namespace parley::e2e {
namespace {

TEST(Metrics, CountRequestsByRoutePatternAndStatus) {
  Server server(unlimited());
  std::string account = server.create_account();
  std::string key = server.create_key(account);
  std::string agent = server.create_agent(account);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(server.get("/api/v1/agents/" + agent, key).status, 200);
  ASSERT_EQ(server.get("/api/v1/agents/agt_missing", key).status, 404);
  ASSERT_EQ(server.get("/api/v1/agents/" + agent, "pk_bad").status, 401);
  ASSERT_EQ(server.get("/no/such/route", key).status, 404);

  // A request is counted once its reply is written, which the client may see first: the figures
  // are read once only this scrape is in flight (a sanitizer build makes the gap visible).
  int scrapes = 0;
  auto settled_scrape = [&] {
    HttpResponse res;
    for (int i = 0; i < 200; ++i) {
      res = server.request({"GET", "/metrics", "", {}});
      ++scrapes;
      if (res.status != 200 || metric_sample(res.body, "parley_http_requests_in_flight") == 1)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return res;
  };
  HttpResponse r = settled_scrape();
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const std::string& m = r.body;
  std::string route = "route=\"GET /api/v1/agents/{agentId}\"";
  EXPECT_EQ(metric_sample(m, "parley_http_requests_total{" + route + ",status=\"200\"}"), 3) << m;
  EXPECT_EQ(metric_sample(m, "parley_http_requests_total{" + route + ",status=\"404\"}"), 1);
  EXPECT_EQ(metric_sample(m, "parley_http_requests_total{" + route + ",status=\"401\"}"), 1);
  EXPECT_EQ(metric_sample(m, "parley_http_requests_total{route=\"unmatched\",status=\"404\"}"), 1);
  EXPECT_EQ(metric_sample(m, "parley_http_request_duration_seconds_count{" + route + "}"), 5);
  EXPECT_EQ(
      metric_sample(m, "parley_http_request_duration_seconds_bucket{" + route + ",le=\"+Inf\"}"),
      5);
  EXPECT_GE(
      metric_sample(m, "parley_http_request_duration_seconds_bucket{" + route + ",le=\"30\"}"), 5);
  EXPECT_NE(m.find("le=\"0.0005\""), std::string::npos);
  EXPECT_GE(metric_sample(m, "parley_http_connections"), 1);
  EXPECT_EQ(metric_sample(m, "parley_http_requests_in_flight"), 1);  // this one
  EXPECT_GT(metric_sample(m, "process_resident_memory_bytes"), 1e6);
  EXPECT_GE(metric_sample(m, "process_cpu_seconds_total"), 0);
  EXPECT_GT(metric_sample(m, "process_open_fds"), 3);
  EXPECT_GT(metric_sample(m, "process_start_time_seconds"), 1.6e9);
  // Patterns, never paths: no id, key or account in any label.
  EXPECT_EQ(m.find(agent), std::string::npos);
  EXPECT_EQ(m.find(account), std::string::npos);
  EXPECT_EQ(m.find(key), std::string::npos);
  EXPECT_EQ(m.find("agt_missing"), std::string::npos);

  // The scrape itself is counted on the next one.
  int before = scrapes;
  auto again = settled_scrape();
  EXPECT_GE(metric_sample(again.body,
                          "parley_http_requests_total{route=\"GET /metrics\",status=\"200\"}"),
            before);
  EXPECT_LT(metric_sample(again.body,
                          "parley_http_requests_total{route=\"GET /metrics\",status=\"200\"}"),
            scrapes);
}

TEST(Metrics, OnlyGetAndHead) {
  Server server;
  auto post = server.request({"POST", "/metrics", "{}", {}});
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.error_code(), "method_not_allowed");
  EXPECT_EQ(post.header("allow"), "GET, HEAD");
  auto head = server.request({"HEAD", "/metrics", "", {}});
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
}

TEST(Metrics, ATokenWhenOneIsSet) {
  Server server(Env{{"PARLEY_METRICS_TOKEN", "m3trics-t0ken"}});
  for (const std::vector<std::string>& headers :
       std::vector<std::vector<std::string>>{{},
                                             {"Authorization: Bearer wrong"},
                                             {"Authorization: m3trics-t0ken"},
                                             {"Authorization: Bearer "}}) {
    auto r = server.request({"GET", "/metrics", "", headers});
    EXPECT_EQ(r.status, 401) << (headers.empty() ? "none" : headers[0]);
    EXPECT_EQ(r.error_code(), "unauthorized");
    EXPECT_EQ(r.body.find("parley_http_requests_total"), std::string::npos);
  }
  auto ok = server.request({"GET", "/metrics", "", {"Authorization: Bearer m3trics-t0ken"}});
  EXPECT_EQ(ok.status, 200);
  EXPECT_NE(ok.body.find("parley_http_requests_in_flight"), std::string::npos);
  EXPECT_EQ(server.log().find("m3trics-t0ken"), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
