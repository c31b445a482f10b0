// The application figures of GET /metrics an operator alerts on: replies by engine and outcome,
// the engines' reply duration histogram (the provider's latency for openai), training queue
// depth and the age of its oldest job, webhook deliveries due, their lag and failures, crawl
// pages fetched; and `promtool check metrics` (Debian's prometheus package) passes on the output.
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

// promtool's verdict on `text`: its exit status and what it printed.
std::pair<int, std::string> promtool_check(const std::string& text) {
  char path[] = "/tmp/parley_metrics_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return {-1, "mkstemp failed"};
  close(fd);
  std::ofstream(path) << text;
  std::string command = std::string("promtool check metrics < ") + path + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[512];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  int status = p ? pclose(p) : -1;
  std::remove(path);
  return {status, out};
}

TEST(MetricsApp, RepliesQueuesAndPromtool) {
  Server server(unlimited());
  ChatSetup c = chat_setup(server);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(chat(server, c, {{"message", "Hello"}}).status, 200);
  std::string m = server.request({"GET", "/metrics", "", {}}).body;
  EXPECT_EQ(
      metric_sample(m, "parley_replies_total{engine=\"retrieval\",outcome=\"unrecorded\"}") +
          metric_sample(m, "parley_replies_total{engine=\"retrieval\",outcome=\"answered\"}") +
          metric_sample(m, "parley_replies_total{engine=\"retrieval\",outcome=\"fallback\"}") +
          metric_sample(m, "parley_replies_total{engine=\"retrieval\",outcome=\"low_confidence\"}"),
      3)
      << m;
  EXPECT_EQ(metric_sample(m, "parley_replies_total{engine=\"openai\",outcome=\"failed\"}"), 0);
  EXPECT_EQ(metric_sample(m, "parley_reply_engine_duration_seconds_count{engine=\"retrieval\"}"),
            3);
  EXPECT_EQ(metric_sample(
                m, "parley_reply_engine_duration_seconds_bucket{engine=\"retrieval\",le=\"+Inf\"}"),
            3);
  for (const char* gauge :
       {"parley_training_queue_depth", "parley_training_queue_oldest_age_seconds",
        "parley_webhook_deliveries_due", "parley_webhook_delivery_lag_seconds",
        "parley_webhook_deliveries_failed", "parley_crawl_pages_fetched_total"}) {
    EXPECT_GE(metric_sample(m, gauge), 0) << gauge;
  }

  auto [status, said] = promtool_check(m);
  EXPECT_EQ(status, 0) << said;
}

}  // namespace
}  // namespace parley::e2e
