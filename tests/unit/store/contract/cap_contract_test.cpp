// Caps counted over rows: active API keys per account, webhooks per agent and origin, contacts
// per agent. Each insert-within-cap refuses past the cap, also when many run at once.
#include "store/agent_repo.h"
#include "store/contact_repo.h"
#include "store/key_repo.h"
#include "store/pipelined.h"
#include "store/webhook_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

ApiKeyRecord key(std::string id, std::string account, int64_t at) {
  ApiKeyRecord k;
  k.id = id;
  k.account_id = std::move(account);
  k.name = "key " + id;
  k.prefix = "svc_live_" + id.substr(0, 3);
  k.fingerprint = "fp_" + id;
  k.all_scopes = true;
  k.created_at = at;
  return k;
}

WebhookRecord webhook(std::string id, std::string agent, std::string account, std::string origin,
                      int64_t at) {
  WebhookRecord w;
  w.id = std::move(id);
  w.agent_id = std::move(agent);
  w.account_id = std::move(account);
  w.url = "https://hooks.example.com/x";
  w.events = {"lead.created", "form.submitted"};
  w.origin = std::move(origin);
  w.secret = "whsec_" + w.id;
  w.created_at = at;
  return w;
}

ContactRecord contact(std::string id, std::string agent, std::string account, int64_t at) {
  ContactRecord c;
  c.id = id;
  c.agent_id = std::move(agent);
  c.account_id = std::move(account);
  c.email = id + "@example.com";
  c.first_seen_at = c.last_seen_at = c.created_at = c.updated_at = at;
  return c;
}

// Runs every thread's inserts and returns how many were accepted.
int insert_concurrently(
    int each, const std::function<Result<bool>(Connection&, const std::string&)>& insert,
    const std::function<void(const std::function<void(int, Database&)>&)>& run) {
  std::atomic<int> accepted{0};
  run([&](int thread, Database& db) {
    for (int i = 0; i < each; ++i) {
      std::string id = std::to_string(thread) + "_" + std::to_string(i);
      bool ok = false;
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_ASSIGN_OR_RETURN(ok, insert(c, id));
        return {};
      });
      EXPECT_TRUE(r.ok()) << r.error().message;
      if (ok) ++accepted;
    }
  });
  return accepted.load();
}

// A contact inserted as the contact upsert does (domain/contacts.cpp): the agent's row locked,
// its count read under the lock, and the contact and its count queued below the cap.
Result<bool> insert_contact_within_cap(Connection& c, const ContactRecord& contact, int64_t cap) {
  bool agent_found = false;
  PARLEY_TRY(AgentRepo::lock_later(c, contact.agent_id, agent_found));
  int64_t count = 0;
  PARLEY_TRY(ContactRepo::count_later(c, contact.agent_id, count));
  PARLEY_TRY(wait_for_answers(c, answers_mark(c)));
  EXPECT_TRUE(agent_found);
  if (count >= cap) return false;
  PARLEY_TRY(ContactRepo::insert_counted(c, contact));
  return true;
}

TEST_P(StoreContract, KeysAreListedNewestFirstAndRevokedOnce) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(KeyRepo::insert(c, key("key_a", account_, now_)));
    return KeyRepo::insert(c, key("key_b", account_, now_ + 1));
  });
  bool first = false, again = true;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(first, KeyRepo::revoke(c, "key_a", now_ + 2));
    PARLEY_ASSIGN_OR_RETURN(again, KeyRepo::revoke(c, "key_a", now_ + 3));
    return {};
  });
  EXPECT_TRUE(first);
  EXPECT_FALSE(again);
  auto all = *KeyRepo::list(reader(), account_, true);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, "key_b");
  EXPECT_EQ(all[1].revoked_at, now_ + 2);
  EXPECT_EQ(KeyRepo::list(reader(), account_, false)->size(), 1u);
  EXPECT_EQ(*KeyRepo::count_active(reader(), account_), 1);
  EXPECT_EQ(KeyRepo::all_active(reader())->size(), 1u);
}

TEST_P(StoreContract, AKeyWithinTheCapIsInsertedAndNoneBeyondIt) {
  std::vector<bool> inserted;
  write([&](Connection& c) -> Result<void> {
    inserted.clear();
    for (int i = 0; i < 3; ++i) {
      PARLEY_ASSIGN_OR_RETURN(bool ok, KeyRepo::insert_within_cap(
                                           c, key("key_" + std::to_string(i), account_, now_), 2));
      inserted.push_back(ok);
    }
    PARLEY_TRY(KeyRepo::revoke(c, "key_0", now_));
    PARLEY_ASSIGN_OR_RETURN(bool after_revoke,
                            KeyRepo::insert_within_cap(c, key("key_3", account_, now_), 2));
    inserted.push_back(after_revoke);
    return {};
  });
  EXPECT_EQ(inserted, (std::vector<bool>{true, true, false, true}));
  EXPECT_EQ(*KeyRepo::count_active(reader(), account_), 2);
}

TEST_P(StoreContract, ConcurrentKeyInsertsStopAtExactlyTheCap) {
  constexpr int64_t kCap = 20;
  int accepted = insert_concurrently(
      5,
      [&](Connection& c, const std::string& id) {
        return KeyRepo::insert_within_cap(c, key("key_" + id, account_, now_), kCap);
      },
      [&](const auto& fn) { concurrently(fn); });
  EXPECT_EQ(accepted, kCap);
  EXPECT_EQ(*KeyRepo::count_active(reader(), account_), kCap);
}

TEST_P(StoreContract, WebhooksAreCappedPerOriginAndListedOldestFirst) {
  std::vector<bool> inserted;
  write([&](Connection& c) -> Result<void> {
    inserted.clear();
    for (int i = 0; i < 3; ++i) {
      PARLEY_ASSIGN_OR_RETURN(
          bool ok,
          WebhookRepo::insert_within_cap(
              c, webhook("whk_d" + std::to_string(i), agent_, account_, "dashboard", now_ + i), 2));
      inserted.push_back(ok);
    }
    PARLEY_ASSIGN_OR_RETURN(
        bool api,
        WebhookRepo::insert_within_cap(c, webhook("whk_a", agent_, account_, "api", now_ + 5), 2));
    inserted.push_back(api);
    return {};
  });
  EXPECT_EQ(inserted, (std::vector<bool>{true, true, false, true}));
  auto hooks = *WebhookRepo::list_for_agent(reader(), agent_);
  ASSERT_EQ(hooks.size(), 3u);
  EXPECT_EQ(hooks[0].id, "whk_d0");
  EXPECT_EQ(hooks[2].id, "whk_a");
  EXPECT_EQ(hooks[0].events, (std::vector<std::string>{"lead.created", "form.submitted"}));
  EXPECT_TRUE(hooks[0].wants("form.submitted"));
  EXPECT_EQ(*WebhookRepo::count_for_agent(reader(), agent_, "dashboard"), 2);
  bool removed = false;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(removed, WebhookRepo::remove(c, "whk_d0"));
    return {};
  });
  EXPECT_TRUE(removed);
  EXPECT_EQ(*WebhookRepo::count_for_agent(reader(), agent_, "dashboard"), 1);
}

TEST_P(StoreContract, ConcurrentWebhookSubscriptionsStopAtExactlyTheCap) {
  constexpr int64_t kCap = 25;
  int accepted = insert_concurrently(
      6,
      [&](Connection& c, const std::string& id) {
        return WebhookRepo::insert_within_cap(
            c, webhook("whk_" + id, agent_, account_, "api", now_), kCap);
      },
      [&](const auto& fn) { concurrently(fn); });
  EXPECT_EQ(accepted, kCap);
  EXPECT_EQ(*WebhookRepo::count_for_agent(reader(), agent_, "api"), kCap);
}

TEST_P(StoreContract, ContactsAreCountedOnTheirAgentAndCapped) {
  // Contacts ctc_{from}…ctc_{to - 1}, in one unit of work, at most 2 for the agent.
  auto insert_up_to_two = [&](int from, int to) {
    std::vector<bool> inserted;
    write([&](Connection& c) -> Result<void> {
      inserted.clear();
      for (int i = from; i < to; ++i) {
        PARLEY_ASSIGN_OR_RETURN(
            bool ok, insert_contact_within_cap(
                         c, contact("ctc_" + std::to_string(i), agent_, account_, now_), 2));
        inserted.push_back(ok);
      }
      return {};
    });
    return inserted;
  };
  EXPECT_EQ(insert_up_to_two(0, 3), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), 2);
  auto by_email = *ContactRepo::find_by_email(reader(), agent_, "ctc_1@example.com");
  ASSERT_TRUE(by_email.has_value());
  EXPECT_EQ(by_email->id, "ctc_1");
  EXPECT_FALSE(ContactRepo::find(reader(), account_, "ctc_2")->has_value());
  bool removed = false;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(removed, ContactRepo::remove(c, account_, "ctc_0"));
    return {};
  });
  EXPECT_TRUE(removed);
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), 1);
  // The room a removal made is taken by the next contact, and the cap holds again after it.
  EXPECT_EQ(insert_up_to_two(3, 5), (std::vector<bool>{true, false}));
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), 2);
}

TEST_P(StoreContract, ConcurrentContactInsertsStopAtExactlyTheCap) {
  constexpr int64_t kCap = 30;
  int accepted = insert_concurrently(
      6,
      [&](Connection& c, const std::string& id) {
        return insert_contact_within_cap(c, contact("ctc_" + id, agent_, account_, now_), kCap);
      },
      [&](const auto& fn) { concurrently(fn); });
  EXPECT_EQ(accepted, kCap);
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), kCap);
  PageQuery q;
  q.limit = 100;
  EXPECT_EQ(ContactRepo::list(reader(), agent_, {}, q)->items.size(), size_t{kCap});
}

}  // namespace
}  // namespace parley
