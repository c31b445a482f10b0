// The schema's dialect on each backend: a migration's lines for PostgreSQL alone, and what the
// schema still holds where PostgreSQL dropped a check (migrations 0054 and 0055).
#include <regex>

#include "store/conversation_repo.h"
#include "store/gap_repo.h"
#include "store/migrations.h"
#include "store_contract.h"

namespace parley {
namespace {

TEST_P(StoreContract, AMigrationsLineForPostgresqlAloneRunsThereAndIsACommentToSqlite) {
  write([&](Connection& c) -> Result<void> {
    return c.execute_script(c.schema_sql("CREATE TABLE everywhere (x INTEGER);\n" +
                                         std::string(kPostgresqlOnlyLine) +
                                         "CREATE TABLE only_postgresql (x INTEGER);\n"
                                         "--  postgresql: CREATE TABLE not_marked (x INTEGER);\n"));
  });
  auto tables = [&](const std::string& name) {
    const std::string sql =
        GetParam().name == "Postgres"
            ? "SELECT count(*) FROM pg_tables WHERE tablename = $1"
            : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1";
    return reader().query_int(sql, {name})->value_or(-1);
  };
  EXPECT_EQ(tables("everywhere"), 1);
  EXPECT_EQ(tables("only_postgresql"), GetParam().name == "Postgres" ? 1 : 0);
  EXPECT_EQ(tables("not_marked"), 0);
}

// Migration 0054's drops name their constraints with IF EXISTS, which would pass over a wrong name;
// 0055 drops the foreign keys of a conversation's messages and figures.
TEST_P(StoreContract, TheTurnsTablesHoldNoCheckOnPostgresql) {
  const bool postgres = GetParam().name == "Postgres";
  const std::string sql =
      postgres
          ? "SELECT count(*) FROM pg_constraint WHERE contype IN ('c', 'f') AND conname IN"
            " ('conversations_channel_check', 'conversations_live_chat_status_check',"
            " 'conversations_csat_score_check', 'messages_role_check', 'gaps_reason_check',"
            " 'gaps_conversation_id_fkey', 'figure_day_names_kind_check',"
            " 'messages_conversation_id_fkey', 'conversation_figures_conversation_id_fkey')"
          : "SELECT count(*) FROM sqlite_master WHERE name IN ('conversations', 'messages', 'gaps',"
            " 'figure_day_names') AND sql LIKE '%CHECK%'";
  // SQLite keeps them: each of the four tables still has its CHECK.
  EXPECT_EQ(reader().query_int(sql, {})->value_or(-1), postgres ? 0 : 4);
}

TEST_P(StoreContract, RemovingAConversationTakesItsGapsWithItsMessages) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_)));
    PARLEY_TRY(ConversationRepo::insert(c, contract_conversation("cnv_2", agent_, account_, now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_1", "cnv_1", now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_2", "cnv_2", now_)));
    PARLEY_TRY(GapRepo::insert_group(c, {"gpg_1", agent_, account_, "parcel", now_, now_, {}, {}}));
    for (const char* n : {"1", "2"}) {
      GapRecord gap{std::string("msg_") + n,
                    "gpg_1",
                    agent_,
                    std::string("cnv_") + n,
                    {},
                    "fallback",
                    "api",
                    now_};
      PARLEY_ASSIGN_OR_RETURN(bool added, GapRepo::insert_gap(c, gap));
      EXPECT_TRUE(added);
    }
    return {};
  });
  std::optional<int64_t> removed;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(removed, ConversationRepo::remove(c, account_, "cnv_1"));
    return {};
  });
  ASSERT_TRUE(removed);
  EXPECT_FALSE(GapRepo::find_gap(reader(), "msg_1")->has_value());
  auto kept = GapRepo::find_gap(reader(), "msg_2");
  ASSERT_TRUE(kept.ok() && kept->has_value());
  EXPECT_EQ((*kept)->conversation_id, "cnv_2");
  // Its messages and its figures went with it (on PostgreSQL by 0055's trigger), the other's stay.
  auto rows = [&](const std::string& table, const std::string& conversation) {
    return reader()
        .query_int("SELECT count(*) FROM " + table + " WHERE conversation_id = $1", {conversation})
        ->value_or(-1);
  };
  EXPECT_EQ(rows("messages", "cnv_1"), 0);
  EXPECT_EQ(rows("conversation_figures", "cnv_1"), 0);
  EXPECT_EQ(rows("messages", "cnv_2"), 1);
  EXPECT_EQ(rows("conversation_figures", "cnv_2"), 1);
  // So do an agent's, with the agent (its conversations by their foreign key).
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute("DELETE FROM agents WHERE id = $1", {agent_}));
    return {};
  });
  EXPECT_EQ(rows("messages", "cnv_2"), 0);
  EXPECT_EQ(rows("conversation_figures", "cnv_2"), 0);
  EXPECT_FALSE(GapRepo::find_gap(reader(), "msg_2")->has_value());
}

// A line meant for PostgreSQL alone but not written as its marker says would be a comment on both
// backends; a statement it begins must end on the same line (the next would run on SQLite too).
TEST(Migrations, EveryLineForPostgresqlAloneIsWrittenAsItsMarkerSays) {
  const std::regex meant(R"(^\s*--\s*postgres(ql)?\s*:)", std::regex::icase);
  for (const auto& m : embedded_migrations()) {
    std::string sql(m.sql);
    size_t at = 0;
    while (at < sql.size()) {
      size_t end = sql.find('\n', at);
      if (end == std::string::npos) end = sql.size();
      std::string line = sql.substr(at, end - at);
      at = end + 1;
      if (!std::regex_search(line, meant)) continue;
      EXPECT_TRUE(line.starts_with(kPostgresqlOnlyLine)) << m.name << ": " << line;
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      EXPECT_EQ(line.back(), ';') << m.name
                                  << ": a statement for PostgreSQL alone ends on its line: "
                                  << line;
    }
  }
}

}  // namespace
}  // namespace parley
