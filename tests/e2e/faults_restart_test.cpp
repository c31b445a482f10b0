// Faults: the PostgreSQL server restarts under two live nodes. The test runs a cluster of its own
// (scripts/pg-cluster.sh), so the restart cuts no other test's connections. Right after the
// restart an agent is renamed and a key revoked through one node; the other node must answer
// with the new name and refuse the key soon after (the contract: within a second; the bound here
// is generous, so a loaded machine does not fail it), and the first node's own first reads after
// the restart must be answered, not refused with 503 on a connection the restart had cut.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "chat_support.h"
#include "harness.h"
#include "process.h"

namespace parley::e2e {
namespace {

using SteadyClock = std::chrono::steady_clock;

const std::string kClusterScript =
    std::string(PARLEY_TEST_DATA_DIR) + "/../../scripts/pg-cluster.sh";

// A throwaway cluster, stopped and removed with the object.
class OwnCluster {
 public:
  OwnCluster() {
    char tpl[] = "/tmp/parley-e2e-pg-XXXXXX";
    dir_ = mkdtemp(tpl);
    auto started = run_process({"/bin/bash", kClusterScript, "start", dir_, "fsync=off"}, {});
    if (started.exit_code == 0)
      url_ = started.out.substr(0, started.out.find_last_not_of("\n") + 1);
    else
      error_ =
          "pg-cluster.sh start failed (" + std::to_string(started.exit_code) + "): " + started.err;
  }
  ~OwnCluster() { run_process({"/bin/bash", kClusterScript, "stop", dir_}, {}); }
  const std::string& url() const { return url_; }
  const std::string& error() const { return error_; }
  bool restart() const {
    return run_process({"/bin/bash", kClusterScript, "restart", dir_}, {}).exit_code == 0;
  }

 private:
  std::string dir_, url_, error_;
};

// Polls `done` every 20 ms until it holds or `limit` seconds pass; returns the seconds it took.
double seconds_until(const std::function<bool()>& done, double limit) {
  auto start = SteadyClock::now();
  while (true) {
    double elapsed = std::chrono::duration<double>(SteadyClock::now() - start).count();
    if (done() || elapsed >= limit) return elapsed;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST(DatabaseRestart, ARenameAndARevocationRightAfterARestartReachTheOtherNodeAtOnce) {
  if (!on_postgres()) GTEST_SKIP() << "nodes that share a PostgreSQL database";
  OwnCluster cluster;
  ASSERT_FALSE(cluster.url().empty()) << cluster.error();
  // The harness makes each server's database in the cluster this variable names; the suite's
  // own cluster is named again when the test ends (the next test in this process uses it).
  std::string suites = std::getenv("PARLEY_TEST_POSTGRES_URL");
  struct Restore {
    std::string url;
    ~Restore() { ::setenv("PARLEY_TEST_POSTGRES_URL", url.c_str(), 1); }
  } restore{suites};
  ::setenv("PARLEY_TEST_POSTGRES_URL", cluster.url().c_str(), 1);
  Server first(unlimited());
  auto second = Server::node_of(first, unlimited());
  auto c = chat_setup(first);
  std::string doomed = first.create_key(c.account);
  std::string path = "/api/v1/agents/" + c.agent;
  // Both nodes have the agent and both keys in their caches.
  for (const Server* s : {&first, second.get()}) {
    ASSERT_EQ(s->get(path, c.key).status, 200);
    ASSERT_EQ(s->get(path, doomed).status, 200);
  }
  std::string owner =
      first.admin({"member", "create", "--account", c.account, "--email", "owner@example.com",
                   "--role", "owner", "--name", "Olga Owner"})["token"];
  std::string doomed_id = first.key_id_of(c.account, doomed);
  ASSERT_TRUE(cluster.restart());
  // Right after the restart, through the first node (a write the database refuses while it
  // comes back is sent again).
  auto through_first = [&](const std::string& method, const std::string& path,
                           const std::string& body) {
    HttpResponse r;
    seconds_until([&] { return (r = send(first, method, path, owner, body)).status < 500; }, 10);
    return r;
  };
  auto renamed_now = through_first("PATCH", "/console/v1/agents/" + c.agent,
                                   R"({"name": "Renamed after restart"})");
  ASSERT_EQ(renamed_now.status, 200) << renamed_now.body;
  auto revoked_now = through_first("DELETE", "/console/v1/keys/" + doomed_id, "");
  ASSERT_LT(revoked_now.status, 300) << revoked_now.body;
  double renamed = seconds_until(
      [&] {
        auto r = second->get(path, c.key);
        return r.status == 200 && r.json()["data"]["name"] == "Renamed after restart";
      },
      10);
  std::cout << "rename seen after " << renamed << " s\n";
  EXPECT_LT(renamed, 3.0) << "the other node kept the old name";
  double revoked = seconds_until([&] { return second->get(path, doomed).status == 401; }, 10);
  std::cout << "revocation seen after " << revoked << " s\n";
  EXPECT_LT(revoked, 3.0) << "the other node still accepted the revoked key";
  // And the process's own node sees both too, its first reads after the restart included.
  auto named = first.get(path, c.key);
  EXPECT_EQ(named.status, 200) << named.body;
  EXPECT_EQ(named.json()["data"]["name"], "Renamed after restart");
  EXPECT_EQ(first.get(path, doomed).status, 401);
}

}  // namespace
}  // namespace parley::e2e
