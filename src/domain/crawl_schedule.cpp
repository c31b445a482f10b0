#include "domain/crawl_schedule.h"

#include "domain/workspace.h"

#include "model/agent_settings.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/website_page_repo.h"
#include "store/workspace_repo.h"

namespace parley {

namespace {
constexpr int64_t kDayMs = 24LL * 60 * 60 * 1000;
constexpr int64_t kAgentsPerRead = 200;

// Puts the agent's imported workspace pages back in the import queue when their last import was
// requested a period ago or more (the importer revalidates them by their last edit); true when it
// did.
Result<bool> requeue_workspace_if_due(Connection& c, std::string_view agent_id, int64_t now,
                                      int64_t period_ms) {
  PARLEY_ASSIGN_OR_RETURN(auto pages, WorkspaceRepo::pages(c, agent_id));
  int64_t last = -1;
  for (const auto& p : pages)
    if (p.source_id) last = std::max(last, p.requested_at);
  if (last < 0 || now - last < period_ms) return false;
  PARLEY_ASSIGN_OR_RETURN(int64_t requeued, requeue_imported_pages(c, agent_id, now));
  return requeued > 0;
}

// Queues the agent's refresh (its websites, and its workspace pages) when it is due; true when it
// did.
Result<bool> queue_if_due(Services& s, const CrawlSettings& settings, const RefreshCandidate& a,
                          int64_t period_ms) {
  bool queued = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    queued = false;
    PARLEY_ASSIGN_OR_RETURN(bool exists, AgentRepo::lock(c, a.agent_id));
    if (!exists) return {};
    const int64_t now = s.clock.now_ms();
    PARLEY_ASSIGN_OR_RETURN(queued, requeue_workspace_if_due(c, a.agent_id, now, period_ms));
    PARLEY_ASSIGN_OR_RETURN(auto crawled, CrawlRepo::last_created(c, a.agent_id, "crawl"));
    PARLEY_ASSIGN_OR_RETURN(auto refreshed, CrawlRepo::last_created(c, a.agent_id, "refresh"));
    const int64_t last = std::max(crawled.value_or(0), refreshed.value_or(0));
    if (now - last < period_ms) return {};
    PARLEY_ASSIGN_OR_RETURN(int64_t active, CrawlRepo::count_active(c, a.agent_id));
    if (active > 0) return {};
    PARLEY_ASSIGN_OR_RETURN(auto pages, WebsitePageRepo::list_after(c, a.agent_id, "", "", 1));
    if (pages.empty()) return {};
    PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, a.account_id));
    if (!account) return {};
    CrawlRecord x;
    x.id = new_id(s.random, "crl_");
    x.account_id = a.account_id;
    x.agent_id = a.agent_id;
    x.kind = "refresh";
    x.max_pages = std::max<int64_t>(
        1, std::min(effective_limits(account->plan, account->overrides).crawl_pages,
                    settings.max_pages));
    x.max_depth = settings.max_depth;
    x.created_at = x.updated_at = now;
    PARLEY_TRY(CrawlRepo::insert(c, x));
    queued = true;
    return {};
  }));
  return queued;
}
}  // namespace

Result<int64_t> queue_due_refreshes(Services& s, const CrawlSettings& settings) {
  int64_t queued = 0;
  std::string after;
  while (true) {
    std::vector<RefreshCandidate> agents;
    {
      PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
      PARLEY_ASSIGN_OR_RETURN(agents, CrawlRepo::refresh_candidates(c, after, kAgentsPerRead));
    }
    for (const auto& a : agents) {
      KnowledgeRefresh every = parse_agent_settings(a.settings).knowledge.refresh;
      if (every == KnowledgeRefresh::kOff) continue;
      const int64_t period = every == KnowledgeRefresh::kDaily ? kDayMs : 7 * kDayMs;
      PARLEY_ASSIGN_OR_RETURN(bool done, queue_if_due(s, settings, a, period));
      queued += done ? 1 : 0;
    }
    if (static_cast<int64_t>(agents.size()) < kAgentsPerRead) return queued;
    after = agents.back().agent_id;
  }
}

}  // namespace parley
