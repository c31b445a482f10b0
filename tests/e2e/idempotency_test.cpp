// Idempotency-Key on the API's writes: a repeat gets the first answer again with no second
// effect (contacts, messages, plan usage, events), a different request with the same key 422, a
// repeat while the first runs 409; 5xx and 429 answers are not kept; kept answers survive a
// restart and end after 24 hours, when the key is removed.
#include <algorithm>
#include <future>

#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

HttpResponse post_with_key(const Server& s, const std::string& path, const std::string& key,
                           const std::string& idempotency_key, const std::string& body) {
  return s.request({"POST", path, body, {bearer(key), "Idempotency-Key: " + idempotency_key}});
}

std::string contacts_of(const ChatSetup& c) { return "/api/v1/agents/" + c.agent + "/contacts"; }
std::string chat_of(const ChatSetup& c) { return "/api/v1/agents/" + c.agent + "/chat"; }

size_t contact_count(const Server& s, const ChatSetup& c) {
  return s.get(contacts_of(c), c.key).json()["data"].size();
}

class Idempotency : public ::testing::Test {
 protected:
  void SetUp() override { server_ = std::make_unique<Server>(unlimited(), clock_.args()); }
  const Server& s() { return *server_; }
  TestClock clock_;
  std::unique_ptr<Server> server_;
};

TEST_F(Idempotency, ARepeatGetsTheFirstAnswerAndCreatesNothing) {
  auto c = chat_setup(s());
  const std::string body = R"({"email": "ada@example.com", "name": "Ada"})";
  auto first = post_with_key(s(), contacts_of(c), c.key, "create-ada-1", body);
  ASSERT_EQ(first.status, 201) << first.body;
  EXPECT_FALSE(first.has_header("idempotent-replayed"));
  auto again = post_with_key(s(), contacts_of(c), c.key, "create-ada-1", body);
  EXPECT_EQ(again.status, 201);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(again.header("content-type").rfind("application/json", 0), 0u);
  EXPECT_TRUE(again.has_header("x-ratelimit-limit"));  // a replay passed the gates like any request
  EXPECT_EQ(contact_count(s(), c), 1u);
  // A new key is a new request.
  auto second = post_with_key(s(), contacts_of(c), c.key, "create-grace-1", R"({"email": "grace@example.com"})");
  EXPECT_EQ(second.status, 201);
  EXPECT_FALSE(second.has_header("idempotent-replayed"));
  EXPECT_EQ(contact_count(s(), c), 2u);
}

TEST_F(Idempotency, ARepeatedDeleteGetsItsFirstAnswerNot404) {
  auto c = chat_setup(s());
  auto created = s().post(contacts_of(c), c.key, R"({"email": "ada@example.com"})");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string path = "/api/v1/contacts/" + created.json()["data"]["id"].get<std::string>();
  auto del = [&] { return s().request({"DELETE", path, "", {bearer(c.key), "Idempotency-Key: delete-ada"}}); };
  auto first = del();
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.json()["data"], (Json{{"id", created.json()["data"]["id"]}, {"deleted", true}}));
  auto again = del();
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  // Without the key, the contact is gone.
  EXPECT_EQ(s().del(path, c.key).status, 404);
}

TEST_F(Idempotency, TheSameKeyOnAnotherRequestIs422) {
  auto c = chat_setup(s());
  ASSERT_EQ(post_with_key(s(), contacts_of(c), c.key, "k-1", R"({"email": "a@example.com"})").status, 201);
  auto other_body = post_with_key(s(), contacts_of(c), c.key, "k-1", R"({"email": "b@example.com"})");
  EXPECT_EQ(other_body.status, 422);
  EXPECT_EQ(other_body.error_code(), "idempotency_key_reused");
  EXPECT_NE(other_body.error_message().find("different request"), std::string::npos);
  auto other_path = post_with_key(s(), chat_of(c), c.key, "k-1", R"({"email": "a@example.com"})");
  EXPECT_EQ(other_path.status, 422);
  EXPECT_EQ(other_path.error_code(), "idempotency_key_reused");
  EXPECT_EQ(contact_count(s(), c), 1u);
  // Keys belong to an account: another account's key of the same name is its own.
  auto d = chat_setup(s());
  EXPECT_EQ(post_with_key(s(), contacts_of(d), d.key, "k-1", R"({"email": "b@example.com"})").status, 201);
}

TEST_F(Idempotency, AMalformedKeyIs400AndReadsIgnoreTheHeader) {
  auto c = chat_setup(s());
  auto long_key = post_with_key(s(), contacts_of(c), c.key, std::string(256, 'k'), R"({"email": "a@example.com"})");
  EXPECT_EQ(long_key.status, 400);
  EXPECT_EQ(long_key.error_code(), "invalid_request");
  EXPECT_NE(long_key.error_message().find("Idempotency-Key"), std::string::npos);
  auto not_printable =
      post_with_key(s(), contacts_of(c), c.key, "caf\xc3\xa9", R"({"email": "a@example.com"})");
  EXPECT_EQ(not_printable.status, 400);
  EXPECT_EQ(not_printable.error_code(), "invalid_request");
  EXPECT_EQ(contact_count(s(), c), 0u);
  EXPECT_EQ(post_with_key(s(), contacts_of(c), c.key, std::string(255, 'k'), R"({"email": "a@example.com"})").status,
            201);
  auto read = s().request({"GET", contacts_of(c), "", {bearer(c.key), "Idempotency-Key: " + std::string(255, 'k')}});
  EXPECT_EQ(read.status, 200);
  EXPECT_FALSE(read.has_header("idempotent-replayed"));
}

TEST_F(Idempotency, AChatMessageIsStoredAndCountedOnce) {
  auto c = chat_setup(s());
  const std::string body = R"({"message": "Hello there"})";
  auto first = post_with_key(s(), chat_of(c), c.key, "chat-1", body);
  ASSERT_EQ(first.status, 200) << first.body;
  auto again = post_with_key(s(), chat_of(c), c.key, "chat-1", body);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  auto counts = agent_counts(s(), c);
  EXPECT_EQ(counts["conversations"], 1) << counts.dump();
  EXPECT_EQ(counts["messages"], 2) << counts.dump();
  EXPECT_EQ(s().admin({"account", "usage", c.account})["messagesUsed"], 1);
}

TEST_F(Idempotency, ALeadLeftInAMessageIsRecordedAndAnnouncedOnce) {
  auto c = chat_setup(s(), R"({"saveContactDetails": true})");
  const std::string body = R"({"message": "You can reach me at ada@example.com"})";
  for (int i = 0; i < 3; ++i) ASSERT_EQ(post_with_key(s(), chat_of(c), c.key, "lead-1", body).status, 200);
  auto leads = s().get("/api/v1/agents/" + c.agent + "/leads", c.key).json()["data"];
  ASSERT_EQ(leads.size(), 1u) << leads.dump();
  EXPECT_EQ(leads[0]["email"], "ada@example.com");
  auto events = s().get("/api/v1/agents/" + c.agent + "/events/lead.created", c.key).json()["data"];
  EXPECT_EQ(events.size(), 1u) << events.dump();
}

TEST_F(Idempotency, AStreamedReplyIsReplayedWholeWithItsHeaders) {
  auto c = chat_setup(s());
  const std::string body = R"({"message": "Hello there", "stream": true})";
  auto first = post_with_key(s(), chat_of(c), c.key, "stream-1", body);
  ASSERT_EQ(first.status, 200) << first.body;
  ASSERT_FALSE(first.body.empty());
  auto again = post_with_key(s(), chat_of(c), c.key, "stream-1", body);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("content-type"), first.header("content-type"));
  EXPECT_EQ(again.header("x-conversation-id"), first.header("x-conversation-id"));
  EXPECT_EQ(again.header("x-session-id"), first.header("x-session-id"));
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(agent_counts(s(), c)["messages"], 2);
}

TEST_F(Idempotency, KeptAnswersSurviveARestartAndEndAfter24Hours) {
  auto c = chat_setup(s());
  const std::string body = R"({"message": "Hello there"})";
  // The key's time lies between these two readings of the server's clock, which also runs on its
  // own (the restart below takes a while on a loaded machine): the advances are from them.
  const int64_t sent = clock_.now_ms();
  auto first = post_with_key(s(), chat_of(c), c.key, "day-1", body);
  const int64_t answered = clock_.now_ms();
  ASSERT_EQ(first.status, 200) << first.body;
  server_->restart();
  auto after_restart = post_with_key(s(), chat_of(c), c.key, "day-1", body);
  EXPECT_EQ(after_restart.body, first.body);
  EXPECT_EQ(after_restart.header("idempotent-replayed"), "true");
  constexpr int64_t kDay = 24 * 3'600'000LL;
  clock_.advance_ms(sent + kDay - 5000 - clock_.now_ms());
  EXPECT_EQ(post_with_key(s(), chat_of(c), c.key, "day-1", body).header("idempotent-replayed"), "true");
  clock_.advance_ms(std::max<int64_t>(0, answered + kDay - clock_.now_ms()));
  // 24 hours after the first request the key is free: the same request runs again.
  auto next_day = post_with_key(s(), chat_of(c), c.key, "day-1", body);
  EXPECT_EQ(next_day.status, 200);
  EXPECT_FALSE(next_day.has_header("idempotent-replayed"));
  EXPECT_NE(next_day.json()["conversationId"], first.json()["conversationId"]);
  EXPECT_EQ(agent_counts(s(), c)["messages"], 4);
  // Ended keys are removed (at start, then every ten minutes).
  ASSERT_EQ(post_with_key(s(), contacts_of(c), c.key, "other", R"({"email": "a@example.com"})").status, 201);
  clock_.advance_ms(24 * 3'600'000LL);
  server_->restart();
  EXPECT_EQ(s().sql("SELECT count(*) FROM idempotency_keys"), (std::vector<std::vector<std::string>>{{"0"}}));
}

// With a provider: a failed reply (5xx) is not kept, and a repeat while the first runs is 409.
class IdempotentLlmChat : public LlmChatTest {};

TEST_F(IdempotentLlmChat, AFailedReplyIsNotKeptSoARetryRuns) {
  auto c = chat_setup(s(), kOpenAi);
  const std::string body = R"({"message": "Ahoy"})";
  llm_->script({{500, "application/json", {R"({"error": {"message": "overloaded"}})"}}});
  auto failed = post_with_key(s(), chat_of(c), c.key, "retry-me", body);
  ASSERT_EQ(failed.status, 500) << failed.body;
  EXPECT_EQ(failed.error_code(), "internal_error");
  expect_nothing_stored(c);
  say({"Arr, ", "ahoy!"});
  auto retried = post_with_key(s(), chat_of(c), c.key, "retry-me", body);
  EXPECT_EQ(retried.status, 200) << retried.body;
  EXPECT_FALSE(retried.has_header("idempotent-replayed"));
  EXPECT_EQ(retried.json()["reply"], "Arr, ahoy!");
  auto replayed = post_with_key(s(), chat_of(c), c.key, "retry-me", body);
  EXPECT_EQ(replayed.header("idempotent-replayed"), "true");
  EXPECT_EQ(replayed.body, retried.body);
  EXPECT_EQ(agent_counts(s(), c)["messages"], 2);
}

TEST_F(IdempotentLlmChat, ARepeatWhileTheFirstRunsIs409) {
  auto c = chat_setup(s(), kOpenAi);
  const std::string body = R"({"message": "Ahoy"})";
  // The provider takes 600 ms to answer.
  llm_->script({{200, "text/event-stream", {"", sse_body({text_chunk("Arr!"), finish_chunk("stop")})}, 600}});
  auto first = std::async(std::launch::async, [&] { return post_with_key(s(), chat_of(c), c.key, "slow-1", body); });
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  auto during = post_with_key(s(), chat_of(c), c.key, "slow-1", body);
  EXPECT_EQ(during.status, 409) << during.body;
  EXPECT_EQ(during.error_code(), "idempotency_key_in_use");
  auto answered = first.get();
  EXPECT_EQ(answered.status, 200) << answered.body;
  auto after = post_with_key(s(), chat_of(c), c.key, "slow-1", body);
  EXPECT_EQ(after.header("idempotent-replayed"), "true");
  EXPECT_EQ(after.body, answered.body);
  EXPECT_EQ(agent_counts(s(), c)["messages"], 2);
}

}  // namespace
}  // namespace parley::e2e
