// Shared helpers of the chat end-to-end suites: an account with an agent and a chat key, and a
// chat call that returns the HTTP response.
#pragma once

#include "harness.h"

namespace parley::e2e {

inline constexpr const char* kDefaultFallback =
    "Sorry, I don't have an answer to that yet. Could you rephrase your question, or ask about "
    "something else?";

struct ChatSetup {
  std::string account;
  std::string agent;
  std::string key;
};

inline ChatSetup chat_setup(const Admin& s, const std::string& settings = "") {
  ChatSetup c;
  c.account = s.create_account();
  c.agent = s.create_agent(c.account, settings);
  c.key = s.create_key(c.account);
  return c;
}

// The seed of a test that starts with chat_setup(server, settings): made once per suite and
// settings.
inline const Seed& chat_seed(const std::string& suite, const std::string& settings = "") {
  return account_seed(suite + "-" + std::to_string(std::hash<std::string>{}(settings)), "starter", settings);
}

inline ChatSetup chat_setup_of(const Seed& seeded) {
  return {seeded.values["account"], seeded.values["agent"], seeded.values["key"]};
}

inline HttpResponse chat(const Server& s, const ChatSetup& c, const Json& body) {
  return s.post("/api/v1/agents/" + c.agent + "/chat", c.key, body.dump());
}

inline HttpResponse chat_raw(const Server& s, const ChatSetup& c, const std::string& body) {
  return s.post("/api/v1/agents/" + c.agent + "/chat", c.key, body);
}

// The conversation with its messages (the API's Conversation shape), read through the admin CLI.
inline Json show_conversation(const Admin& s, const std::string& id) {
  return s.admin({"conversation", "get", id});
}

inline Json agent_counts(const Admin& s, const ChatSetup& c) {
  return s.admin({"agent", "get", c.agent})["counts"];
}

}  // namespace parley::e2e
