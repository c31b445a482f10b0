// End-to-end test support: starts the real parley binary on a free port with its own data
// directory, runs `parley admin` on the same database, and speaks HTTP to it with libcurl.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"

namespace parley::e2e {

using Json = nlohmann::json;

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  Json json() const;
  std::string header(const std::string& lower_name) const;
  bool has_header(const std::string& lower_name) const { return headers.count(lower_name) > 0; }
  // The spec's error code, or "" when the body is not an error.
  std::string error_code() const;
  std::string error_message() const;
};

struct HttpRequest {
  std::string method = "GET";
  std::string path;
  std::string body;
  std::vector<std::string> headers;  // "Name: value"
  bool json_body = true;             // sends Content-Type: application/json when body is set
  long timeout_ms = 70000;
};

using Env = std::map<std::string, std::string>;

// The suite runs on SQLite, or on PostgreSQL when PARLEY_TEST_POSTGRES_URL names a cluster
// (scripts/test.sh starts a throwaway one): each data directory then has a database of its own
// there, made, copied (from a seed, as a template) and dropped with it.
bool on_postgres();

// `n` times U+1F600, a character of four bytes in UTF-8 (for the contract's length rules, which
// count characters).
std::string emoji(size_t n);
// The value of the Prometheus sample line of `text` that starts with `series` (labels included),
// or -1 when there is none.
double metric_sample(const std::string& text, const std::string& series);

// `parley admin` on one data directory: a server's, or a seed's while it is made.
class Admin {
 public:
  explicit Admin(std::string data_dir, Env env = {}) : data_dir_(std::move(data_dir)), env_(std::move(env)) {}
  const std::string& data_dir() const { return data_dir_; }
  // What a `parley` process needs to open this database: PARLEY_DATA_DIR, and on PostgreSQL
  // PARLEY_DATABASE_URL.
  Env database_env() const;
  // Rows of a query run on the database by its command-line client (sqlite3 or psql), each
  // column as text ("" for NULL).
  std::vector<std::vector<std::string>> sql(const std::string& query) const;
  // Runs a statement that writes, while a server may be writing too (SQLite waits up to 10 s for
  // its lock instead of failing at once).
  void write_sql(const std::string& statement) const;
  // The first column of the first row as an integer (a count).
  int64_t sql_int(const std::string& query) const;
  // Everything the database holds, as the client's dump prints it.
  std::string dump() const;

  // Runs `parley admin ARGS...` on this database. Fails the test on a non-zero exit unless
  // `expect_failure`; returns stdout parsed as JSON (or {"stderr": ...} on failure).
  Json admin(const std::vector<std::string>& args, bool expect_failure = false) const;

  // Shortcuts over admin.
  std::string create_account(const std::string& plan = "starter") const;  // returns id
  std::string create_agent(const std::string& account_id, const std::string& settings = "") const;
  // Returns the plaintext key; scopes "" means every scope.
  std::string create_key(const std::string& account_id, const std::string& scopes = "") const;
  std::string key_id_of(const std::string& account_id, const std::string& plaintext) const;

 protected:
  std::string data_dir_;
  Env env_;
};

// A data directory made once and copied for each server started from it: the schema migrated,
// then what the seed's maker adds through admin; `values` is what the maker returned (ids, keys)
// and `dir` this process's own copy of the database.
// Made by the first test process that asks (the others wait on a lock) and kept in the build tree
// until a binary is rebuilt or it is an hour old, so each process of a suite's tests copies it
// instead of running the same `parley admin` commands.
struct Seed {
  std::string dir;
  Json values;
};
// `name` is unique per maker (the suite's name).
const Seed& seed(const std::string& name, const std::function<Json(const Admin&)>& make);

// The seed most suites start from: an account on `plan` with an agent (`agent_settings`) and,
// unless `with_key` is false, a key of every scope; values "account", "agent" and "key".
const Seed& account_seed(const std::string& name, const std::string& plan = "starter",
                         const std::string& agent_settings = "", bool with_key = true);

class Server : public Admin {
 public:
  // Starts `parley serve` on 127.0.0.1 port 0 with a fresh data directory: a copy of `from`, or
  // of an empty migrated one. `env` adds environment variables (e.g.
  // PARLEY_RATE_LIMIT_PER_MINUTE) and `args` extra serve options.
  explicit Server(Env env = {}, std::vector<std::string> args = {}, const Seed* from = nullptr);
  // Another node on `first`'s database (several nodes need PostgreSQL; on SQLite a second
  // `serve` is refused), with a folder of its own for its log. The database stays `first`'s.
  static std::unique_ptr<Server> node_of(const Server& first, Env env, std::vector<std::string> args = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Restarts on the same data directory (a new port), with the same env and args.
  void restart();
  // Sends a signal and waits for the process to exit; returns its exit status.
  int stop(int signal_number = 15);
  void kill_hard();
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  const std::string& base_url() const { return base_url_; }
  uint16_t port() const { return port_; }
  std::string log() const;

  HttpResponse request(const HttpRequest& req) const;
  HttpResponse get(const std::string& path, const std::string& key) const;
  HttpResponse post(const std::string& path, const std::string& key, const std::string& body) const;
  HttpResponse patch(const std::string& path, const std::string& key, const std::string& body) const;
  HttpResponse del(const std::string& path, const std::string& key) const;

 private:
  struct Node {};
  Server(Node, const Server& first, Env env, std::vector<std::string> args);
  void start();
  std::vector<std::string> args_;
  std::string own_dir_;  // removed with this server (its data directory unless it is a node)
  std::string log_path_;
  std::string base_url_;
  uint16_t port_ = 0;
  pid_t pid_ = -1;
};

// The clock of a server started with args() (`parley serve --test-clock-file`): the system clock
// plus an offset this object writes to a file, so that a test moves the server's time instead of
// waiting for it. Not thread-safe.
class TestClock {
 public:
  TestClock();
  ~TestClock();
  TestClock(const TestClock&) = delete;
  TestClock& operator=(const TestClock&) = delete;

  std::vector<std::string> args() const { return {"--test-clock-file", dir_ + "/offset"}; }
  // The server's time now, in milliseconds since the epoch.
  int64_t now_ms() const;
  void advance_ms(int64_t ms);
  // Moves the server's clock forward to the beginning of the next minute, so that the requests
  // that follow all fall in one per-minute window.
  void advance_to_next_minute();
  // Moves it forward to the beginning of the next period of `period_ms` since the epoch (a
  // window of that length, as the shared counters align theirs), so that what follows falls in
  // one window unless the test moves the clock on.
  void advance_to_next_window(int64_t period_ms);

 private:
  std::string dir_;
  int64_t offset_ms_ = 0;
};

std::string bearer(const std::string& key);

// A TCP socket connected to 127.0.0.1:port, or -1. `receive_buffer` > 0 sets SO_RCVBUF before
// connecting. For tests that speak raw bytes; the caller closes it.
int connect_loopback(uint16_t port, int receive_buffer = 0);

// The environment of a server whose rate limit will not get in a test's way.
inline Env unlimited() { return Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "1000000"}}; }

// Console support. A team member made with `parley admin member create`: its JSON with the
// member token in "token" and the email in "email" (unique per call). `password` empty: the
// member cannot log in.
Json create_member(const Admin& server, const std::string& account_id, const std::string& role,
                   const std::string& password = "");
// A request with a body and a bearer token, for methods the Server shortcuts lack (PUT).
HttpResponse send(const Server& server, const std::string& method, const std::string& path,
                  const std::string& token, const std::string& body);

// A test with its own server, started from a seed its suite makes once (account_seed of the
// suite's name unless suite_seed() says otherwise), and the seed's account, agent and key.
class SeededServerTest : public ::testing::Test {
 protected:
  virtual const Seed& suite_seed() {
    return account_seed(::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name());
  }
  void SetUp() override {
    const Seed& seeded = suite_seed();
    server_ = new Server(unlimited(), {}, &seeded);
    account_ = seeded.values["account"];
    agent_ = seeded.values["agent"];
    key_ = seeded.values["key"];
  }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }
  inline static Server* server_ = nullptr;
  std::string account_, agent_, key_;
};

}  // namespace parley::e2e
