// The audit log's end-to-end fixture: a server started from a seed with an account, its agent,
// an owner, an admin, an editor, a viewer and an API key ("backend"), and another account with
// its owner; helpers to read the log through the console.
#pragma once

#include "harness.h"

namespace parley::e2e {

class AuditLogE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    const Seed& seeded = seed("AuditLogE2e", [](const Admin& a) {
      std::string account = a.create_account("starter");
      std::string other = a.create_account("starter");
      return Json{{"account", account},
                  {"agent", a.create_agent(account)},
                  {"owner", create_member(a, account, "owner")},
                  {"admin", create_member(a, account, "admin")},
                  {"editor", create_member(a, account, "editor")["token"]},
                  {"viewer", create_member(a, account, "viewer")["token"]},
                  {"key", a.admin({"key", "create", "--account", account, "--name", "backend"})},
                  {"other", other},
                  {"otherOwner", create_member(a, other, "owner")["token"]}};
    });
    server_ = std::make_unique<Server>(unlimited(), std::vector<std::string>{}, &seeded);
    v_ = seeded.values;
    account_ = v_["account"];
    agent_ = v_["agent"];
    owner_ = v_["owner"]["token"];
    admin_ = v_["admin"]["token"];
  }

  // The entries of the account's log that `query` keeps, newest first (one page).
  Json entries(const std::string& query, const std::string& token = "") {
    auto r = server_->get("/console/v1/audit" + query, token.empty() ? owner_ : token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"];
  }
  std::string audit_text() { return server_->get("/console/v1/audit?limit=100", owner_).body; }
  static const Json* change_of(const Json& entry, const std::string& field) {
    for (const auto& c : entry["changes"])
      if (c["field"] == field) return &c;
    return nullptr;
  }

  std::unique_ptr<Server> server_;
  Json v_;
  std::string account_, agent_, owner_, admin_;
};

}  // namespace parley::e2e
