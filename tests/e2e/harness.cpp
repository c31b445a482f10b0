#include "harness.h"

#include <curl/curl.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

namespace parley::e2e {

namespace fs = std::filesystem;

Json HttpResponse::json() const {
  auto j = Json::parse(body, nullptr, false);
  if (j.is_discarded()) ADD_FAILURE() << "response is not JSON: " << body.substr(0, 500);
  return j;
}

std::string HttpResponse::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string HttpResponse::error_code() const {
  auto j = Json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("error")) return "";
  return j["error"].value("code", "");
}

std::string HttpResponse::error_message() const {
  auto j = Json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("error")) return "";
  return j["error"].value("message", "");
}

int connect_loopback(uint16_t port, int receive_buffer) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  if (receive_buffer > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string bearer(const std::string& key) { return "Authorization: Bearer " + key; }

namespace {
std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

size_t on_body(char* p, size_t size, size_t n, void* ud) {
  static_cast<std::string*>(ud)->append(p, size * n);
  return size * n;
}

size_t on_header(char* p, size_t size, size_t n, void* ud) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(ud);
  std::string line(p, size * n);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.pop_back();
    (*headers)[name] = value;
  } else if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();  // a new response (after 100 Continue)
  }
  return size * n;
}

struct CurlInit {
  CurlInit() { curl_global_init(CURL_GLOBAL_DEFAULT); }
} curl_init;
}  // namespace

namespace {
// A file's last change in nanoseconds, or -1 when it is missing.
int64_t mtime_ns(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
}

const char* postgres_cluster() { return std::getenv("PARLEY_TEST_POSTGRES_URL"); }

// The PostgreSQL database of a data directory: named after its path, so that seeds of two build
// trees on one cluster never meet.
std::string database_name(const std::string& dir) {
  std::string base = fs::path(dir).filename().string();
  std::string name = "p_";
  for (char c : base.substr(0, 30)) name += std::isalnum(static_cast<unsigned char>(c)) ? std::tolower(c) : '_';
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(dir));
  return name + "_" + hash;
}

std::string database_url(const std::string& dir) {
  std::string cluster = postgres_cluster();
  return cluster.substr(0, cluster.rfind('/') + 1) + database_name(dir);
}

// Runs SQL on the cluster's maintenance database; what psql printed, and whether it succeeded.
ProcessResult cluster_query(const std::string& statement) {
  return run_process({"/usr/bin/psql", postgres_cluster(), "-qAtX", "-v", "ON_ERROR_STOP=1", "-c", statement}, {});
}

bool cluster_sql(const std::string& statement) { return cluster_query(statement).exit_code == 0; }

void drop_database(const std::string& dir) {
  if (on_postgres()) cluster_sql("DROP DATABASE IF EXISTS " + database_name(dir) + " WITH (FORCE)");
}

// Copies a data directory's database (closed: the admin processes that wrote it have exited).
void copy_database(const std::string& from, const std::string& to) {
  if (on_postgres()) {
    if (!cluster_sql("CREATE DATABASE " + database_name(to) + " TEMPLATE " + database_name(from)))
      throw std::runtime_error("cannot copy database " + database_name(from));
    return;
  }
  for (const char* name : {"parley.db", "parley.db-wal"})
    if (fs::exists(from + "/" + name)) fs::copy_file(from + "/" + name, to + "/" + name);
}

// Whether a seed made earlier still has its database (a cluster lives for one test run).
bool database_exists(const std::string& dir) {
  if (!on_postgres()) return true;
  auto r = cluster_query("SELECT 1 FROM pg_database WHERE datname = '" + database_name(dir) + "'");
  return r.exit_code == 0 && r.out.find('1') != std::string::npos;
}

// This process's copies of the seeds, removed when it exits.
struct SeedCopies {
  std::vector<std::string> dirs;
  ~SeedCopies() {
    std::error_code ec;
    for (const auto& d : dirs) {
      fs::remove_all(d, ec);
      drop_database(d);
    }
  }
};
}  // namespace

bool on_postgres() {
  const char* url = postgres_cluster();
  return url != nullptr && *url != '\0';
}

Env Admin::database_env() const {
  Env env{{"PARLEY_DATA_DIR", data_dir_}};
  if (on_postgres()) env["PARLEY_DATABASE_URL"] = database_url(data_dir_);
  return env;
}

std::string emoji(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += "\xF0\x9F\x98\x80";
  return s;
}

double metric_sample(const std::string& text, const std::string& series) {
  size_t at = text.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

void Admin::write_sql(const std::string& statement) const {
  sql(on_postgres() ? statement : "PRAGMA busy_timeout = 10000; " + statement);
}

int64_t Admin::sql_int(const std::string& query) const {
  return std::stoll(sql(query).at(0).at(0));
}

std::vector<std::vector<std::string>> Admin::sql(const std::string& query) const {
  std::vector<std::string> argv = on_postgres()
      ? std::vector<std::string>{"/usr/bin/psql", database_url(data_dir_), "-qAtX", "-F", "\t", "-c", query}
      : std::vector<std::string>{"/usr/bin/sqlite3", "-separator", "\t", data_dir_ + "/parley.db", query};
  auto r = run_process(argv, {});
  EXPECT_EQ(r.exit_code, 0) << query << ": " << r.err;
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> row;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      row.push_back(line.substr(start, tab - start));
    row.push_back(line.substr(start));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string Admin::dump() const {
  auto r = on_postgres() ? run_process({"/usr/bin/pg_dump", database_url(data_dir_)}, {})
                         : run_process({"/usr/bin/sqlite3", data_dir_ + "/parley.db", ".dump"}, {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

const Seed& seed(const std::string& name, const std::function<Json(const Admin&)>& make) {
  static std::mutex mu;
  static std::map<std::string, Seed> made;
  static SeedCopies copies;
  std::lock_guard process_lock(mu);
  // Apart per backend: a PostgreSQL seed's folder holds no database file. And per cluster: a
  // test that runs a cluster of its own (faults_restart_test.cpp) makes its seeds there.
  std::string root = std::string(PARLEY_TEST_SEED_DIR);
  if (on_postgres()) {
    char cluster[17];
    std::snprintf(cluster, sizeof cluster, "%016zx", std::hash<std::string>{}(postgres_cluster()));
    root += std::string("-postgresql-") + cluster;
  }
  if (auto it = made.find(root + "/" + name); it != made.end()) return it->second;
  fs::create_directories(root);
  std::string dir = root + "/" + name;
  int lock_fd = open((dir + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0 || flock(lock_fd, LOCK_EX) != 0) throw std::runtime_error("cannot lock seed " + name);
  int64_t ready = mtime_ns(dir + "/values.json");
  int64_t newest_binary = std::max(mtime_ns(PARLEY_BINARY), mtime_ns("/proc/self/exe"));
  int64_t hour_ago = (int64_t{std::time(nullptr)} - 3600) * 1'000'000'000;
  if (ready < 0 || ready <= newest_binary || ready < hour_ago || !database_exists(dir)) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    drop_database(dir);
    std::string tpl_text = dir + ".new-XXXXXX";
    std::vector<char> tpl(tpl_text.begin(), tpl_text.end());
    tpl.push_back('\0');
    std::string building = mkdtemp(tpl.data());
    Admin maker(building);
    if (on_postgres() && !cluster_sql("CREATE DATABASE " + database_name(building)))
      throw std::runtime_error("cannot create database " + database_name(building));
    auto migrated = run_process({PARLEY_BINARY, "migrate"}, maker.database_env());
    if (migrated.exit_code != 0) throw std::runtime_error("parley migrate failed: " + migrated.err);
    Json values = make ? make(maker) : Json::object();
    if (::testing::Test::HasFailure()) throw std::runtime_error("seed " + name + " failed");
    if (on_postgres() &&
        !cluster_sql("ALTER DATABASE " + database_name(building) + " RENAME TO " + database_name(dir)))
      throw std::runtime_error("cannot rename database " + database_name(building));
    // Written last: its presence says the seed is whole.
    std::ofstream(building + "/values.json") << values.dump();
    fs::rename(building, dir);
  }
  // Copied while locked, with its values, so that a seed made again by another process later
  // cannot pair this process's values with another database.
  char copy_tpl[] = "/tmp/parley-e2e-seed-XXXXXX";
  std::string copy = mkdtemp(copy_tpl);
  copies.dirs.push_back(copy);
  copy_database(dir, copy);
  std::ifstream in(dir + "/values.json");
  Json values = Json::parse(in, nullptr, false);
  flock(lock_fd, LOCK_UN);
  close(lock_fd);
  return made[root + "/" + name] = Seed{copy, values};
}

const Seed& account_seed(const std::string& name, const std::string& plan,
                         const std::string& agent_settings, bool with_key) {
  return seed(name, [&](const Admin& a) {
    std::string account = a.create_account(plan);
    Json values{{"account", account}, {"agent", a.create_agent(account, agent_settings)}};
    if (with_key) values["key"] = a.create_key(account);
    return values;
  });
}

Server::Server(Env env, std::vector<std::string> args, const Seed* from)
    : Admin("", std::move(env)), args_(std::move(args)) {
  char tpl[] = "/tmp/parley-e2e-XXXXXX";
  data_dir_ = mkdtemp(tpl);
  own_dir_ = data_dir_;
  log_path_ = data_dir_ + "/server.log";
  // A migrated database saves every server the migrations.
  const Seed& origin = from != nullptr ? *from : seed("migrated", {});
  copy_database(origin.dir, data_dir_);
  start();
}

std::unique_ptr<Server> Server::node_of(const Server& first, Env env, std::vector<std::string> args) {
  return std::unique_ptr<Server>(new Server(Node{}, first, std::move(env), std::move(args)));
}

Server::Server(Node, const Server& first, Env env, std::vector<std::string> args)
    : Admin(first.data_dir(), std::move(env)), args_(std::move(args)) {
  char tpl[] = "/tmp/parley-e2e-node-XXXXXX";
  own_dir_ = mkdtemp(tpl);
  log_path_ = own_dir_ + "/server.log";
  start();
}

Server::~Server() {
  if (pid_ > 0) stop(SIGTERM);
  std::error_code ec;
  if (!std::getenv("PARLEY_KEEP_TEST_DATA")) {
    fs::remove_all(own_dir_, ec);
    if (own_dir_ == data_dir_) drop_database(data_dir_);
  }
}

void Server::start() {
  std::ofstream(log_path_, std::ios::trunc).close();
  std::map<std::string, std::string> env;
  for (auto& [k, v] : database_env()) env[k] = v;
  env["PARLEY_LOG_FLUSH_MS"] = "0";  // every line at once, so tests read the whole log
  // The suite runs many servers beside each other and beside PostgreSQL: at the work niceness
  // (core/thread_priority.h) a server's work would yield to the other tests' processes, and a
  // test that times a reply would time the machine's load. A test of the niceness sets it.
  env["PARLEY_WORK_NICE"] = "0";
  for (auto& [k, v] : env_) env[k] = v;
  std::vector<std::string> argv = {PARLEY_BINARY, "serve", "--listen", "127.0.0.1:0"};
  argv.insert(argv.end(), args_.begin(), args_.end());
  const ExecPlan plan(argv, env);  // built before the fork (process.h)
  const char* log_path = log_path_.c_str();
  pid_ = fork();
  if (pid_ == 0) {
    int fd = open(log_path, O_WRONLY | O_APPEND);
    dup2(fd, 2);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    plan.exec();
  }
  std::regex listening(R"re("msg":"listening","address":"[^"]*:(\d+)")re");
  // Up to 30 s: a sanitizer build on a loaded machine starts far slower than a release one.
  for (int i = 0; i < 3000; ++i) {
    std::smatch m;
    std::string log_text = read_file(log_path_);
    if (std::regex_search(log_text, m, listening)) {
      port_ = static_cast<uint16_t>(std::stoi(m[1]));
      base_url_ = "http://127.0.0.1:" + std::to_string(port_);
      return;
    }
    int status;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("server exited at start: " + log_text);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw std::runtime_error("server did not start: " + read_file(log_path_));
}

void Server::restart() {
  if (pid_ > 0) stop(SIGTERM);
  start();
}

int Server::stop(int signal_number) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, signal_number);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void Server::kill_hard() { stop(SIGKILL); }

std::string Server::log() const { return read_file(log_path_); }

namespace {
// With PARLEY_TEST_RESPONSE_LOG naming a folder, every response a test receives is appended
// there (one JSON line, a file per process) for tests/node/validate-responses.mjs to check
// against docs/openapi.yaml.
void record_response(const HttpRequest& req, const HttpResponse& res) {
  static const char* dir = std::getenv("PARLEY_TEST_RESPONSE_LOG");
  if (dir == nullptr || *dir == '\0' || res.status == 0) return;
  static std::mutex mu;
  static std::ofstream out(std::string(dir) + "/" + std::to_string(::getpid()) + ".jsonl", std::ios::app);
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  Json line = {{"method", req.method},
               {"path", req.path},
               {"status", res.status},
               {"contentType", res.header("content-type")},
               {"body", res.body},
               {"test", test != nullptr ? std::string(test->test_suite_name()) + "." + test->name() : ""}};
  std::lock_guard lock(mu);
  out << line.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
  out.flush();
}
}  // namespace

HttpResponse Server::request(const HttpRequest& req) const {
  HttpResponse res;
  CURL* c = curl_easy_init();
  std::string url = base_url_ + req.path;
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  curl_slist* headers = nullptr;
  for (auto& h : req.headers) headers = curl_slist_append(headers, h.c_str());
  if (!req.body.empty() || req.method == "POST" || req.method == "PATCH") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(req.body.size()));
    if (req.json_body) headers = curl_slist_append(headers, "Content-Type: application/json");
  }
  if (req.method == "HEAD") curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &res.body);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &res.headers);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, req.timeout_ms);
  CURLcode rc = curl_easy_perform(c);
  if (rc == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &res.status);
  else ADD_FAILURE() << req.method << " " << req.path << ": " << curl_easy_strerror(rc);
  curl_slist_free_all(headers);
  curl_easy_cleanup(c);
  record_response(req, res);
  return res;
}

HttpResponse Server::get(const std::string& path, const std::string& key) const {
  return request({"GET", path, "", {bearer(key)}});
}
HttpResponse Server::post(const std::string& path, const std::string& key, const std::string& body) const {
  return request({"POST", path, body, {bearer(key)}});
}
HttpResponse Server::patch(const std::string& path, const std::string& key, const std::string& body) const {
  return request({"PATCH", path, body, {bearer(key)}});
}
HttpResponse Server::del(const std::string& path, const std::string& key) const {
  return request({"DELETE", path, "", {bearer(key)}});
}

Json Admin::admin(const std::vector<std::string>& args, bool expect_failure) const {
  std::vector<std::string> argv = {PARLEY_BINARY, "admin"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env = env_;
  env.merge(database_env());
  auto r = run_process(argv, env);
  if (expect_failure) {
    EXPECT_NE(r.exit_code, 0) << "admin should have failed: " << r.out;
    return Json{{"stderr", r.err}, {"exit", r.exit_code}};
  }
  EXPECT_EQ(r.exit_code, 0) << "admin failed: " << r.err;
  auto j = Json::parse(r.out, nullptr, false);
  if (j.is_discarded()) {
    ADD_FAILURE() << "admin printed no JSON: " << r.out << r.err;
    return Json::object();
  }
  return j;
}

std::string Admin::create_account(const std::string& plan) const {
  return admin({"account", "create", "--name", "Test account", "--plan", plan})["id"];
}

std::string Admin::create_agent(const std::string& account_id, const std::string& settings) const {
  std::vector<std::string> args = {"agent", "create", "--account", account_id, "--name", "Test agent"};
  if (!settings.empty()) {
    args.push_back("--settings");
    args.push_back(settings);
  }
  return admin(args)["id"];
}

std::string Admin::create_key(const std::string& account_id, const std::string& scopes) const {
  std::vector<std::string> args = {"key", "create", "--account", account_id, "--name", "test key"};
  if (!scopes.empty()) {
    args.push_back("--scopes");
    args.push_back(scopes);
  }
  return admin(args)["key"];
}

std::string Admin::key_id_of(const std::string& account_id, const std::string& plaintext) const {
  auto keys = admin({"key", "list", "--account", account_id})["data"];
  for (auto& k : keys)
    if (k["prefix"] == plaintext.substr(0, 12)) return k["id"];
  return "";
}

TestClock::TestClock() {
  char tpl[] = "/tmp/parley-e2e-clock-XXXXXX";
  dir_ = mkdtemp(tpl);
}

TestClock::~TestClock() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

int64_t TestClock::now_ms() const {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() + offset_ms_;
}

void TestClock::advance_ms(int64_t ms) {
  offset_ms_ += ms;
  // Replaced whole, so that the server never reads a half-written number.
  std::ofstream(dir_ + "/offset.new") << offset_ms_ << "\n";
  fs::rename(dir_ + "/offset.new", dir_ + "/offset");
}

void TestClock::advance_to_next_minute() { advance_to_next_window(60000); }

void TestClock::advance_to_next_window(int64_t period_ms) {
  advance_ms(period_ms - now_ms() % period_ms);
}

Json create_member(const Admin& server, const std::string& account_id, const std::string& role,
                   const std::string& password) {
  static std::atomic<int> counter{0};
  // The process id too: a seeded account may already have members another process made.
  std::string email = "member" + std::to_string(++counter) + "-" + std::to_string(getpid()) + "." +
                      account_id + "@example.com";
  std::vector<std::string> args = {"member", "create", "--account", account_id, "--email", email,
                                   "--role", role, "--name", "Sam"};
  if (!password.empty()) {
    args.push_back("--password");
    args.push_back(password);
  }
  return server.admin(args);
}

HttpResponse send(const Server& server, const std::string& method, const std::string& path,
                  const std::string& token, const std::string& body) {
  return server.request({method, path, body, {bearer(token)}});
}

}  // namespace parley::e2e
