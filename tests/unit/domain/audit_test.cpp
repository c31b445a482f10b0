// The audit log against a real SQLite database with a manual clock: changes as field diffs with
// secrets redacted, the hash chain, what verification finds (an edited, a deleted, a reordered
// entry, a deleted tail), the in-transaction recording of AuditedDatabase, and a purge that
// keeps the chain verifiable.
#include "domain/audit.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "domain/audited_database.h"

namespace parley {
namespace {

constexpr int64_t kDay = 24LL * 60 * 60 * 1000;

class AuditLog : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/parley-audit-XXXXXX";
    dir_ = mkdtemp(tmpl);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db"});
    ASSERT_TRUE(db.ok()) << db.error().message;
    db_ = std::move(*db);
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  AuditRecord append(const std::string& account, const std::string& name_before,
                     const std::string& name_after) {
    AuditEvent e;
    e.account_id = account;
    e.actor = {"member", "mem_1", "ann@example.com", "203.0.113.9"};
    e.action = "agent.update";
    e.target_type = "agent";
    e.target_id = "agt_1";
    e.before = AuditSnapshot{{"name", "\"" + name_before + "\""}};
    e.after = AuditSnapshot{{"name", "\"" + name_after + "\""}};
    AuditRecord out;
    auto w = db_->write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(out, append_audit(c, clock_, random_, e));
      return {};
    });
    EXPECT_TRUE(w.ok()) << w.error().message;
    return out;
  }
  void exec(const std::string& sql) {
    auto w = db_->write([&](Connection& c) -> Result<void> {
      PARLEY_TRY(c.execute(sql, {}));
      return {};
    });
    ASSERT_TRUE(w.ok()) << w.error().message;
  }
  AuditVerdict verify() {
    auto v = verify_audit(*db_, std::nullopt);
    EXPECT_TRUE(v.ok());
    return *v;
  }

  std::string dir_;
  ManualClock clock_{1'700'000'000'000};
  SecureRandom random_;
  std::unique_ptr<Database> db_;
};

TEST(AuditChanges, ListOnlyChangedFieldsInOrder) {
  AuditSnapshot before{{"name", "\"Old\""}, {"private", "false"}, {"settings.tone", "\"warm\""}};
  AuditSnapshot after{{"name", "\"New\""}, {"private", "false"}, {"settings.lang", "\"en\""}};
  EXPECT_EQ(audit_changes_json(before, after),
            "[{\"field\":\"name\",\"old\":\"Old\",\"new\":\"New\"},"
            "{\"field\":\"settings.lang\",\"old\":null,\"new\":\"en\"},"
            "{\"field\":\"settings.tone\",\"old\":\"warm\",\"new\":null}]");
  EXPECT_EQ(audit_changes_json(before, before), "[]");
  EXPECT_EQ(audit_changes_json(std::nullopt, AuditSnapshot{{"name", "\"A\""}}),
            "[{\"field\":\"name\",\"old\":null,\"new\":\"A\"}]");
}

TEST(AuditChanges, RedactSecretsButKeepThatTheyChanged) {
  for (auto f : {"settings.llm.apiKey", "secret", "password", "token", "identitySecret",
                 "settings.apiActions.secrets", "signingSecret", "key"}) {
    EXPECT_TRUE(audit_field_is_secret(f)) << f;
  }
  for (auto f : {"name", "settings.llm.baseUrl", "keyId", "role", "events"}) {
    EXPECT_FALSE(audit_field_is_secret(f)) << f;
  }
  AuditSnapshot before{{"settings.llm.apiKey", "\"sk-old\""}};
  AuditSnapshot after{{"settings.llm.apiKey", "\"sk-new\""}};
  std::string changes = audit_changes_json(before, after);
  EXPECT_EQ(changes,
            "[{\"field\":\"settings.llm.apiKey\",\"old\":\"[redacted]\",\"new\":\"[redacted]\"}]");
  EXPECT_EQ(audit_changes_json(std::nullopt, after),
            "[{\"field\":\"settings.llm.apiKey\",\"old\":null,\"new\":\"[redacted]\"}]");
}

TEST_F(AuditLog, EntriesChainPerAccount) {
  auto a1 = append("acc_a", "A", "B");
  auto a2 = append("acc_a", "B", "C");
  auto b1 = append("acc_b", "X", "Y");
  EXPECT_EQ(a1.seq, 1);
  EXPECT_EQ(a2.seq, 2);
  EXPECT_EQ(b1.seq, 1);
  EXPECT_EQ(a1.prev_hash, kAuditGenesisHash);
  EXPECT_EQ(a2.prev_hash, a1.hash);
  EXPECT_EQ(b1.prev_hash, kAuditGenesisHash);
  EXPECT_EQ(a1.hash, audit_entry_hash(a1));
  auto v = verify();
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.chains, 2);
  EXPECT_EQ(v.entries, 3);
}

TEST_F(AuditLog, VerifyNamesAnEditedEntry) {
  append("acc_a", "A", "B");
  auto second = append("acc_a", "B", "C");
  append("acc_a", "C", "D");
  exec("UPDATE audit_entries SET actor_name = 'someone@else.com' WHERE id = '" + second.id + "'");
  auto v = verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.problem, "edited");
  EXPECT_EQ(v.entry_id, second.id);
  EXPECT_EQ(v.seq, 2);
  EXPECT_NE(v.message.find(second.id), std::string::npos) << v.message;
}

TEST_F(AuditLog, VerifyFindsAnEntryEditedWithItsHashRecomputed) {
  append("acc_a", "A", "B");
  auto second = append("acc_a", "B", "C");
  auto third = append("acc_a", "C", "D");
  AuditRecord forged = second;
  forged.changes = "[]";
  forged.hash = audit_entry_hash(forged);
  exec("UPDATE audit_entries SET changes = '[]', hash = '" + forged.hash + "' WHERE id = '" +
       second.id + "'");
  auto v = verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.problem, "broken_link");
  EXPECT_EQ(v.entry_id, third.id);
}

TEST_F(AuditLog, VerifyNamesADeletedEntryAndADeletedTail) {
  append("acc_a", "A", "B");
  append("acc_a", "B", "C");
  auto third = append("acc_a", "C", "D");
  exec("DELETE FROM audit_entries WHERE seq = 2");
  auto v = verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.problem, "deleted");
  EXPECT_EQ(v.seq, 2);
  EXPECT_FALSE(v.entry_id.has_value());
  EXPECT_NE(v.message.find(third.id), std::string::npos) << v.message;

  exec("DELETE FROM audit_entries");
  append("acc_c", "A", "B");
  append("acc_c", "B", "C");
  exec("DELETE FROM audit_chains WHERE id = 'acc_a'");
  exec("DELETE FROM audit_entries WHERE account_id = 'acc_c' AND seq = 2");
  v = verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.account_id, "acc_c");
  EXPECT_EQ(v.problem, "deleted");
  EXPECT_EQ(v.seq, 2);
}

TEST_F(AuditLog, VerifyFindsSwappedEntries) {
  append("acc_a", "A", "B");
  append("acc_a", "B", "C");
  exec("UPDATE audit_entries SET seq = 0 - seq WHERE account_id = 'acc_a'");
  exec("UPDATE audit_entries SET seq = 3 + seq WHERE account_id = 'acc_a'");
  auto v = verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.seq, 1);
  EXPECT_EQ(v.problem, "edited");
}

TEST_F(AuditLog, PurgeKeepsTheChainVerifiable) {
  append("acc_a", "A", "B");
  append("acc_a", "B", "C");
  clock_.advance_ms(400 * kDay);
  auto kept = append("acc_a", "C", "D");
  auto removed = purge_audit(*db_, clock_, kAuditKeepMs);
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(*removed, 2);
  auto v = verify();
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.entries, 1);
  // Deleting the first kept entry is still seen.
  exec("DELETE FROM audit_entries WHERE id = '" + kept.id + "'");
  v = verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.problem, "deleted");
  EXPECT_EQ(v.seq, 3);
  // A broken chain is not purged: the evidence stays.
  auto edited = append("acc_b", "A", "B");
  append("acc_b", "B", "C");
  exec("UPDATE audit_entries SET actor_name = 'x' WHERE id = '" + edited.id + "'");
  clock_.advance_ms(400 * kDay);
  EXPECT_FALSE(purge_audit(*db_, clock_, kAuditKeepMs).ok());
  auto c = db_->read();
  ASSERT_TRUE(c.ok());
  auto left = AuditRepo::scan(c->get(), "acc_b", 0, 10);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->size(), 2u);
}

TEST_F(AuditLog, AuditedDatabaseRecordsInTheSameTransaction) {
  exec("CREATE TABLE things (id TEXT PRIMARY KEY, name TEXT)");
  exec("INSERT INTO things VALUES ('t1', 'old')");
  AuditSnapshotFn snapshot = [](Connection& c,
                                const AuditTargetRef& t) -> Result<std::optional<AuditSnapshot>> {
    std::optional<AuditSnapshot> out;
    PARLEY_TRY(c.query("SELECT name FROM things WHERE id = $1", {std::string_view(t.id)},
                       [&](const Row& r) {
                         out = AuditSnapshot{{"name", "\"" + r.text(0) + "\""}};
                       }));
    return out;
  };
  AuditEvent e;
  e.account_id = "acc_a";
  e.actor = {"cli", std::nullopt, "admin CLI (ops)", std::nullopt};
  e.action = "thing.update";
  e.target_type = "thing";
  e.target_id = "t1";
  AuditedDatabase audited(*db_, clock_, random_, e, snapshot, {"acc_a", "t1", ""});
  // A unit of work that fails leaves neither the change nor an entry.
  auto failed = audited.write([](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute("UPDATE things SET name = 'lost' WHERE id = 't1'", {}));
    return ApiError::invalid("no");
  });
  EXPECT_FALSE(failed.ok());
  EXPECT_FALSE(audited.recorded());
  // One that changes nothing of the target records nothing.
  ASSERT_TRUE(audited.write([](Connection&) -> Result<void> { return {}; }).ok());
  EXPECT_FALSE(audited.recorded());
  ASSERT_TRUE(audited
                  .write([](Connection& c) -> Result<void> {
                    PARLEY_TRY(c.execute("UPDATE things SET name = 'new' WHERE id = 't1'", {}));
                    return {};
                  })
                  .ok());
  EXPECT_TRUE(audited.recorded());
  auto c = db_->read();
  ASSERT_TRUE(c.ok());
  AuditFilter f;
  f.account_id = "acc_a";
  auto rows = AuditRepo::list(c->get(), f);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].changes, "[{\"field\":\"name\",\"old\":\"old\",\"new\":\"new\"}]");
  EXPECT_EQ((*rows)[0].actor_name, "admin CLI (ops)");
  EXPECT_TRUE(verify().ok);
}

}  // namespace
}  // namespace parley
