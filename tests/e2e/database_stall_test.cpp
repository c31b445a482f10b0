// A slow or locked database must not freeze a node: nothing that can wait on it runs on an I/O
// thread. With one I/O thread and the API keys' table locked, a made-up key (which must be
// looked up there) waits on the blocking pool while /healthz and a cached GET are answered; a
// made-up key seen before is answered from memory without a query. PostgreSQL only: on SQLite
// no unknown key is ever looked up (one node holds every key).
#include <cstdlib>

#include "harness.h"
#include "raw_connection.h"

namespace parley::e2e {
namespace {

constexpr const char* kHolder = "parley_test_lock_holder";

// Holds an ACCESS EXCLUSIVE lock on `table` from a psql session of its own until release().
class TableLock {
 public:
  TableLock(const Server& server, const std::string& table) : server_(server) {
    std::string url = server.database_env().at("PARLEY_DATABASE_URL");
    std::string command = "PGAPPNAME=" + std::string(kHolder) + " /usr/bin/psql '" + url +
                          "' -qAtX -c 'BEGIN; LOCK TABLE " + table +
                          " IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120);' >/dev/null 2>&1 &";
    EXPECT_EQ(std::system(command.c_str()), 0);
    // Held once PostgreSQL has granted it.
    for (int i = 0; i < 200; ++i) {
      auto rows = server_.sql(
          "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = "
          "'" +
          table + "' AND l.mode = 'AccessExclusiveLock' AND l.granted");
      if (!rows.empty() && rows[0][0] == "1") return;
      usleep(50'000);
    }
    ADD_FAILURE() << "the lock on " << table << " was never granted";
  }
  ~TableLock() { release(); }
  void release() {
    if (released_) return;
    released_ = true;
    server_.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '" +
        std::string(kHolder) + "'");
  }

 private:
  const Server& server_;
  bool released_ = false;
};

std::string get_request(const std::string& path, const std::string& key) {
  return "GET " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key + "\r\n\r\n";
}

TEST(DatabaseStall, ALockedKeyTableDelaysNeitherHealthzNorACachedGet) {
  if (!on_postgres()) GTEST_SKIP() << "unknown keys are looked up only on a database nodes share";
  Env env = unlimited();
  env["PARLEY_THREADS"] = "1";
  Server server(env);
  std::string account = server.create_account();
  std::string agent = server.create_agent(account);
  std::string key = server.create_key(account);
  const std::string path = "/api/v1/agents/" + agent;
  ASSERT_EQ(server.get(path, key).status, 200);  // the key and the agent are now in memory
  const std::string made_up = "svc_live_" + std::string(32, 'z');

  {
    TableLock lock(server, "api_keys");
    Connection stalled(server.port());
    ASSERT_TRUE(stalled.send(get_request(path, made_up)));  // waits for the lock on the pool
    auto health = server.request({"GET", "/healthz", "", {}, true, 20000});
    EXPECT_EQ(health.status, 200) << "the I/O thread waited on the database";
    HttpRequest cached{"GET", path, "", {bearer(key)}};
    cached.timeout_ms = 20000;
    auto got = server.request(cached);
    EXPECT_EQ(got.status, 200) << got.body;
    lock.release();
    std::string answer = stalled.read_response();
    EXPECT_NE(answer.find(" 401 "), std::string::npos) << answer;
  }
  {
    // Found unknown once: answered from memory while the table is locked again.
    TableLock lock(server, "api_keys");
    HttpRequest again{"GET", path, "", {bearer(made_up)}};
    again.timeout_ms = 20000;
    auto r = server.request(again);
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_EQ(r.error_code(), "unauthorized");
  }
}

}  // namespace
}  // namespace parley::e2e
