// The knowledge settings end to end: `language`, `synonyms` and `answerThreshold` validated through
// the console's agent PATCH (and POST) and `parley admin agent update`, naming the field; the
// synonyms setting changing answers at once (the index is rebuilt, nothing is retrained); a French
// agent matching an inflected form; and `parley admin demo` (what `make run` does) giving an agent
// that answers the question of its printed curl line, with its source.
#include <chrono>
#include <thread>

#include "chat_support.h"

namespace parley::e2e {
namespace {

const char* kRefund = "Refunds are paid to your card within five days.";

class KnowledgeSettingsE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static Server* server_;
  const Server& s() { return *server_; }

  void add_text(const ChatSetup& c, const std::string& title, const std::string& content) {
    auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "text"}, {"title", title}, {"content", content}}.dump());
    ASSERT_EQ(r.status, 201) << r.body;
  }
  Json wait_trained(const ChatSetup& c) {
    Json body;
    for (int i = 0; i < 1000; ++i) {
      auto r = s().get("/api/v1/agents/" + c.agent + "/sources", c.key);
      body = r.json();
      if (r.status == 200 && body["training"]["done"] == true) return body;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "training did not finish: " << body.dump();
    return body;
  }
  std::string reply(const ChatSetup& c, const std::string& message) {
    auto r = chat(s(), c, {{"message", message}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json().value("reply", "");
  }
  // An editor's console token for the account.
  std::string editor(const ChatSetup& c) {
    return create_member(s(), c.account, "editor")["token"];
  }
  HttpResponse patch_settings(const ChatSetup& c, const std::string& token,
                              const std::string& settings) {
    return s().patch("/console/v1/agents/" + c.agent, token, R"({"settings":)" + settings + "}");
  }
  Json console_settings(const ChatSetup& c, const std::string& token) {
    auto r = s().get("/console/v1/agents/" + c.agent, token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"]["settings"];
  }
};
Server* KnowledgeSettingsE2e::server_ = nullptr;

struct Refusal {
  std::string settings;
  std::string message;
};

// Every refused value with the exact message, which names the field.
std::vector<Refusal> refusals() {
  return {
      {R"({"language":5})", "Setting 'language' must be a string."},
      {R"({"answerThreshold":1.5})", "Setting 'answerThreshold' must be between 0 and 1."},
      {R"({"answerThreshold":-0.1})", "Setting 'answerThreshold' must be between 0 and 1."},
      {R"({"answerThreshold":"high"})", "Setting 'answerThreshold' must be a number."},
      {R"({"synonyms":"refund"})", "Setting 'synonyms' must be an array."},
      {R"({"synonyms":[["one"]]})", "Setting 'synonyms[0]' must be an array of 2 to 20 terms."},
      {R"({"synonyms":["refund"]})", "Setting 'synonyms[0]' must be an array of 2 to 20 terms."},
      {R"({"synonyms":[["refund","money back"],["x"]]})",
       "Setting 'synonyms[1]' must be an array of 2 to 20 terms."},
      {R"({"synonyms":[["a",""]]})",
       "Setting 'synonyms[0][1]' must be a word or phrase of at most 100 characters."},
      {R"({"synonyms":[["a","  ?! "]]})",
       "Setting 'synonyms[0][1]' must be a word or phrase of at most 100 characters."},
      {R"({"synonyms":[[5,"a"]]})",
       "Setting 'synonyms[0][0]' must be a word or phrase of at most 100 characters."},
  };
}

TEST_F(KnowledgeSettingsE2e, TheConsoleRefusesBadKnowledgeSettingsNamingTheField) {
  auto c = chat_setup(s(), R"({"language":"en","answerThreshold":0.5})");
  std::string token = editor(c);
  const Json before = console_settings(c, token);
  ASSERT_EQ(before, (Json{{"language", "en"}, {"answerThreshold", 0.5}}));

  auto unknown_language = patch_settings(c, token, R"({"language":"xx"})");
  EXPECT_EQ(unknown_language.status, 400) << unknown_language.body;
  EXPECT_EQ(unknown_language.error_code(), "invalid_request");
  EXPECT_TRUE(unknown_language.error_message().starts_with("Setting 'language' must be one of: "))
      << unknown_language.error_message();
  EXPECT_NE(unknown_language.error_message().find("en, es"), std::string::npos);
  EXPECT_NE(unknown_language.error_message().find("ja"), std::string::npos);

  for (const auto& refused : refusals()) {
    auto r = patch_settings(c, token, refused.settings);
    EXPECT_EQ(r.status, 400) << refused.settings << " " << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request") << refused.settings;
    EXPECT_EQ(r.error_message(), refused.message) << refused.settings;
  }
  // Nothing refused was written.
  EXPECT_EQ(console_settings(c, token), before);
  // Creating an agent is held to the same rules.
  auto created =
      s().post("/console/v1/agents", token, R"({"name":"B","settings":{"synonyms":[["one"]]}})");
  EXPECT_EQ(created.status, 400) << created.body;
  EXPECT_EQ(created.error_code(), "invalid_request");
  EXPECT_EQ(created.error_message(), "Setting 'synonyms[0]' must be an array of 2 to 20 terms.");
}

TEST_F(KnowledgeSettingsE2e, TheConsoleAcceptsGoodKnowledgeSettingsAndReadsThemBack) {
  auto c = chat_setup(s());
  std::string token = editor(c);
  auto r = patch_settings(
      c, token,
      R"({"language":"fr","answerThreshold":0.35,"synonyms":[["remboursement","argent rendu"],["vélo","bicyclette","bécane"]]})");
  ASSERT_EQ(r.status, 200) << r.body;
  const Json expected = {
      {"language", "fr"},
      {"answerThreshold", 0.35},
      {"synonyms", Json::array({Json::array({"remboursement", "argent rendu"}),
                                Json::array({"vélo", "bicyclette", "bécane"})})}};
  EXPECT_EQ(r.json()["data"]["settings"], expected);
  EXPECT_EQ(console_settings(c, token), expected);
  // The bounds are allowed, every supported language too; null removes a setting.
  for (const char* threshold : {"0", "1", "0.0", "1.0"}) {
    auto t = patch_settings(c, token, std::string(R"({"answerThreshold":)") + threshold + "}");
    EXPECT_EQ(t.status, 200) << threshold << " " << t.body;
  }
  EXPECT_EQ(console_settings(c, token)["answerThreshold"], 1.0);
  for (const char* language : {"ja", "zh", "ru", "el", "de", "en"}) {
    auto l = patch_settings(c, token, std::string(R"({"language":")") + language + "\"}");
    EXPECT_EQ(l.status, 200) << language << " " << l.body;
    EXPECT_EQ(l.json()["data"]["settings"]["language"], language);
  }
  auto removed = patch_settings(c, token, R"({"synonyms":null,"answerThreshold":null})");
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_EQ(removed.json()["data"]["settings"], (Json{{"language", "en"}}));
}

TEST_F(KnowledgeSettingsE2e, AdminAgentUpdateRefusesBadKnowledgeSettings) {
  auto c = chat_setup(s());
  auto refuse = [&](const std::string& settings) {
    Json out = s().admin({"agent", "update", c.agent, "--settings", settings}, true);
    EXPECT_NE(out["exit"], 0) << settings;
    auto error = Json::parse(out["stderr"].get<std::string>(), nullptr, false);
    EXPECT_FALSE(error.is_discarded()) << "not JSON: " << out["stderr"];
    return error.is_discarded() ? Json::object() : error;
  };
  Json language = refuse(R"({"language":"xx"})");
  EXPECT_EQ(language["error"]["code"], "invalid_request");
  EXPECT_TRUE(language["error"]["message"].get<std::string>().starts_with(
      "Setting 'language' must be one of: "));
  for (const auto& refused : refusals()) {
    Json e = refuse(refused.settings);
    EXPECT_EQ(e["error"]["code"], "invalid_request") << refused.settings;
    EXPECT_EQ(e["error"]["message"], refused.message) << refused.settings;
  }
  EXPECT_EQ(s().admin({"agent", "get", c.agent})["settings"], Json::object());
  Json ok = s().admin(
      {"agent", "update", c.agent, "--settings",
       R"({"language":"de","answerThreshold":0.75,"synonyms":[["Rückgabe","Umtausch"]]})"});
  const Json expected = {{"language", "de"},
                         {"answerThreshold", 0.75},
                         {"synonyms", Json::array({Json::array({"Rückgabe", "Umtausch"})})}};
  EXPECT_EQ(ok["settings"], expected);
  EXPECT_EQ(s().admin({"agent", "get", c.agent})["settings"], expected);
}

TEST_F(KnowledgeSettingsE2e, SynonymsChangeAnswersWithoutRetraining) {
  auto c = chat_setup(s(), R"({"showSources":true})");
  add_text(c, "Refunds", kRefund);
  add_text(c, "Opening hours", "Our shop opens at nine in the morning and closes at six.");
  add_text(c, "Delivery", "Delivery takes two working days in the country.");
  Json trained = wait_trained(c);
  ASSERT_EQ(trained["data"].size(), 3u);
  const std::string question = "can I have my money back?";
  auto before = chat(s(), c, {{"message", question}}).json();
  EXPECT_EQ(before["reply"], kDefaultFallback);
  EXPECT_EQ(before["sources"], Json::array());

  std::string token = editor(c);
  auto r = patch_settings(c, token, R"({"synonyms":[["refund","money back"]]})");
  ASSERT_EQ(r.status, 200) << r.body;
  // No waiting: the next question is answered by the index analysed with the new groups.
  auto after = chat(s(), c, {{"message", question}}).json();
  EXPECT_EQ(after["reply"], kRefund);
  EXPECT_EQ(after["sources"], (Json::array({{{"title", "Refunds"}, {"url", nullptr}}})));
  // Nothing was retrained: every source is still trained, no training is under way.
  auto list = s().get("/api/v1/agents/" + c.agent + "/sources", c.key).json();
  EXPECT_EQ(list["training"]["done"], true);
  for (const auto& source : list["data"]) EXPECT_EQ(source["status"], "trained") << source.dump();
  EXPECT_EQ(s().admin({"agent", "get", c.agent})["status"], "trained");

  // Without the group again, the phrase means nothing to the agent.
  ASSERT_EQ(patch_settings(c, token, R"({"synonyms":null})").status, 200);
  EXPECT_EQ(reply(c, question), kDefaultFallback);
}

TEST_F(KnowledgeSettingsE2e, AFrenchAgentMatchesAnInflectedForm) {
  const std::string sentence = "La livraison est gratuite pour toute commande de plus de 50 euros.";
  auto c = chat_setup(s(), R"({"language":"fr","showSources":true})");
  add_text(c, "Livraison", sentence);
  add_text(c, "Magasin", "Le magasin ouvre à neuf heures du matin.");
  wait_trained(c);
  auto j = chat(s(), c, {{"message", "Est-ce que les livraisons sont gratuites ?"}}).json();
  EXPECT_EQ(j["reply"], sentence);
  EXPECT_EQ(j["sources"], (Json::array({{{"title", "Livraison"}, {"url", nullptr}}})));
  EXPECT_EQ(reply(c, "Les livraisons sont-elles gratuites ?"), sentence);
}

TEST_F(KnowledgeSettingsE2e, ChangingTheLanguageReanalysesTheKnowledge) {
  const std::string sentence = "La livraison est gratuite pour toute commande de plus de 50 euros.";
  auto c = chat_setup(s());
  add_text(c, "Livraison", sentence);
  add_text(c, "Magasin", "Le magasin ouvre à neuf heures du matin.");
  wait_trained(c);
  const std::string question = "Est-ce que les livraisons sont gratuites ?";
  // Read as English, the question's French function words are words the knowledge lacks.
  EXPECT_EQ(reply(c, question), kDefaultFallback);
  std::string token = editor(c);
  ASSERT_EQ(patch_settings(c, token, R"({"language":"fr"})").status, 200);
  EXPECT_EQ(reply(c, question), sentence);
}

TEST_F(KnowledgeSettingsE2e, TheAnswerThresholdDecidesWhetherTheAgentAnswers) {
  const std::string privacy = "We never sell your personal data to third parties.";
  const std::string hours = "We are open from 9 to 5, Monday to Friday.";
  auto c = chat_setup(s(), R"({"showSources":true})");
  add_text(c, "Privacy", privacy);
  add_text(c, "Returns", "Returns are accepted within 30 days of purchase with the receipt.");
  auto qa = s().post(
      "/api/v1/agents/" + c.agent + "/sources", c.key,
      Json{{"type", "qa"}, {"question", "What are your opening hours?"}, {"answer", hours}}.dump());
  ASSERT_EQ(qa.status, 201) << qa.body;
  wait_trained(c);
  const std::string out_of_scope = "Do you sell kayaks?";
  const std::string in_scope = "Do you sell my personal data?";
  // The default threshold: the out-of-scope question falls back with no sources.
  auto fallback = chat(s(), c, {{"message", out_of_scope}}).json();
  EXPECT_EQ(fallback["reply"], kDefaultFallback);
  EXPECT_EQ(fallback["sources"], Json::array());
  EXPECT_EQ(reply(c, in_scope), privacy);

  std::string token = editor(c);
  ASSERT_EQ(patch_settings(c, token, R"({"answerThreshold":0})").status, 200);
  auto found = chat(s(), c, {{"message", out_of_scope}}).json();
  EXPECT_EQ(found["reply"], privacy);
  EXPECT_EQ(found["sources"], (Json::array({{{"title", "Privacy"}, {"url", nullptr}}})));

  ASSERT_EQ(patch_settings(c, token, R"({"answerThreshold":1})").status, 200);
  EXPECT_EQ(reply(c, in_scope), kDefaultFallback);
  auto exact = chat(s(), c, {{"message", "what are your opening hours"}}).json();
  EXPECT_EQ(exact["reply"], hours);
  EXPECT_EQ(exact["sources"],
            (Json::array({{{"title", "What are your opening hours?"}, {"url", nullptr}}})));
}

// The key, the chat path and the body of the curl line `parley admin demo` prints.
struct CurlLine {
  std::string key, url, body;
};

CurlLine parse_curl(const std::string& curl) {
  CurlLine out;
  std::smatch m;
  EXPECT_TRUE(std::regex_search(curl, m, std::regex("Authorization: Bearer ([^']+)'"))) << curl;
  if (m.size() > 1) out.key = m[1];
  EXPECT_TRUE(std::regex_search(curl, m, std::regex(" -d '([^']*)' (\\S+)$"))) << curl;
  if (m.size() > 2) {
    out.body = m[1];
    out.url = m[2];
  }
  return out;
}

TEST(AdminDemo, TheDemoAgentAnswersItsCurlLineWithItsSource) {
  Server server(unlimited());
  // As `make run`: the demo is made on the database before the server runs.
  server.stop();
  const std::string base = "http://127.0.0.1:8111";
  Json demo = server.admin({"demo", "--base-url", base});
  ASSERT_EQ(demo["created"], true) << demo.dump();
  const std::string agent = demo["agent"]["id"];
  const std::string key = demo["key"]["key"];
  CurlLine curl = parse_curl(demo["curl"]);
  EXPECT_EQ(curl.key, key);
  EXPECT_EQ(curl.url, base + "/api/v1/agents/" + agent + "/chat");
  EXPECT_EQ(Json::parse(curl.body),
            (Json{{"message", "How much does it cost to rent an e-bike for a day?"}}));

  server.restart();
  Json sources;
  for (int i = 0; i < 1500; ++i) {
    auto r = server.get("/api/v1/agents/" + agent + "/sources", key);
    sources = r.json();
    if (r.status == 200 && sources["training"]["done"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(sources["training"]["done"], true) << sources.dump();
  ASSERT_EQ(sources["data"].size(), 8u);
  for (const auto& s : sources["data"]) EXPECT_EQ(s["status"], "trained") << s.dump();

  auto r = server.post(curl.url.substr(base.size()), key, curl.body);
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = r.json();
  const std::string reply = j["reply"];
  EXPECT_NE(reply.find("£35"), std::string::npos) << reply;
  EXPECT_NE(reply.find("e-bike"), std::string::npos) << reply;
  ASSERT_EQ(j["sources"].size(), 1u) << j.dump();
  EXPECT_EQ(j["sources"][0], (Json{{"title", "Bike rental"}, {"url", nullptr}}));

  // The dashboard's owner signs in with the printed email and password.
  EXPECT_EQ(demo["dashboard"]["url"], base + "/");
  const std::string password = demo["dashboard"]["password"];
  EXPECT_EQ(password.size(), 16u);
  auto login = server.request({"POST", "/console/v1/login",
                               Json{{"email", demo["dashboard"]["email"]}, {"password", password}}.dump(), {}});
  ASSERT_EQ(login.status, 200) << login.body;
  EXPECT_EQ(login.json()["member"]["role"], "owner");
  EXPECT_EQ(send(server, "GET", "/console/v1/agents", login.json()["token"], "").json()["data"][0]["id"], agent);

  // A second demo on the same database changes nothing.
  server.stop();
  EXPECT_EQ(server.admin({"demo", "--base-url", base}),
            (Json{{"created", false}, {"reason", "the database already has accounts"}}));
  EXPECT_EQ(server.admin({"account", "list"})["data"].size(), 1u);
}

TEST(AdminDemo, ADatabaseWithAccountsGetsNoDemo) {
  Server server(unlimited());
  std::string account = server.create_account();
  Json demo = server.admin({"demo"});
  EXPECT_EQ(demo, (Json{{"created", false}, {"reason", "the database already has accounts"}}));
  auto accounts = server.admin({"account", "list"})["data"];
  ASSERT_EQ(accounts.size(), 1u);
  EXPECT_EQ(accounts[0]["id"], account);
}

}  // namespace
}  // namespace parley::e2e
