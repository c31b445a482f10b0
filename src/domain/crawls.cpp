#include "domain/crawls.h"

#include "core/json.h"
#include "domain/crawl_urls.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/website_page_repo.h"

namespace parley {

namespace {
constexpr int64_t kListedCrawls = 100;

Result<void> check_patterns(const std::vector<std::string>& patterns, std::string_view field) {
  const std::string name(field);
  if (patterns.size() > kMaxCrawlPatterns)
    return ApiError::invalid("'" + name + "' holds at most " + std::to_string(kMaxCrawlPatterns) +
                             " patterns.");
  for (size_t i = 0; i < patterns.size(); ++i) {
    const std::string& p = patterns[i];
    const std::string at = "'" + name + "[" + std::to_string(i) + "]'";
    if (p.empty() || (p.front() != '/' && p.front() != '*'))
      return ApiError::invalid(at + " must be a path pattern starting with '/' or '*'.");
    if (utf8_length(p) > kMaxCrawlPatternChars)
      return ApiError::invalid(at + " must be at most " + std::to_string(kMaxCrawlPatternChars) +
                               " characters.");
    for (unsigned char ch : p)
      if (ch <= 0x20 || ch == 0x7f)
        return ApiError::invalid(at + " must not contain spaces or control characters.");
  }
  return {};
}

Result<AgentRecord> account_agent(Connection& c, std::string_view account_id,
                                  std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find(c, account_id, agent_id));
  if (!a) return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
  return std::move(*a);
}

// The page cap of the account's plan, under the operator's ceiling.
Result<int64_t> page_cap(Connection& c, std::string_view account_id,
                         const CrawlSettings& settings) {
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
  if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
  int64_t plan = effective_limits(account->plan, account->overrides).crawl_pages;
  return std::max<int64_t>(0, std::min(plan, settings.max_pages));
}

// Inserts the job once the agent is locked, the account's and the agent's caps checked.
Result<void> queue(Services& s, const CrawlSettings& settings, CrawlRecord& crawl,
                   const std::optional<int64_t>& max_pages) {
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(AgentRepo::lock(c, crawl.agent_id));  // the count of active jobs, then the insert
    PARLEY_TRY(account_agent(c, crawl.account_id, crawl.agent_id));
    PARLEY_ASSIGN_OR_RETURN(int64_t cap, page_cap(c, crawl.account_id, settings));
    if (max_pages && (*max_pages < 1 || *max_pages > cap))
      return ApiError::invalid("'maxPages' must be an integer from 1 to " + std::to_string(cap) +
                               ".");
    crawl.max_pages = max_pages.value_or(cap);
    PARLEY_ASSIGN_OR_RETURN(int64_t active, CrawlRepo::count_active(c, crawl.agent_id));
    if (active >= settings.active_per_agent)
      return ApiError{ErrorCode::kConflict,
                      "The agent already has " + std::to_string(active) +
                          " crawls under way; wait for one to end or cancel one."};
    return CrawlRepo::insert(c, crawl);
  });
}

CrawlRecord new_record(Services& s, std::string_view account_id, std::string_view agent_id,
                       std::string_view kind) {
  CrawlRecord x;
  x.id = new_id(s.random, "crl_");
  x.account_id = std::string(account_id);
  x.agent_id = std::string(agent_id);
  x.kind = std::string(kind);
  x.created_at = x.updated_at = s.clock.now_ms();
  return x;
}
}  // namespace

Result<void> validate_new_crawl(const NewCrawl& n, const CrawlSettings& settings) {
  if (is_blank(n.url)) return ApiError::invalid("'url' is required.");
  PARLEY_TRY(parse_crawl_url(n.url));
  if (n.max_pages && *n.max_pages < 1)
    return ApiError::invalid("'maxPages' must be an integer of at least 1.");
  if (n.max_depth && (*n.max_depth < 0 || *n.max_depth > settings.max_depth))
    return ApiError::invalid("'maxDepth' must be an integer from 0 to " +
                             std::to_string(settings.max_depth) + ".");
  PARLEY_TRY(check_patterns(n.include, "include"));
  return check_patterns(n.exclude, "exclude");
}

Result<std::string> check_crawl_url(std::string_view url, Resolver& resolver,
                                    const CrawlSettings& settings) {
  PARLEY_ASSIGN_OR_RETURN(std::string normal, parse_crawl_url(url));
  PARLEY_ASSIGN_OR_RETURN(auto target, parse_target_url(normal, true));
  // The check every fetch makes again (and pins): a name must resolve, to public addresses only.
  auto pinned = address_for_delivery(target, resolver, settings.allow_private_targets);
  if (!pinned.ok()) {
    if (pinned.error().message.rfind("'url'", 0) == 0) return pinned.error();
    return ApiError::invalid(
        "'url' must point to a public server; private and internal network addresses are "
        "refused.");
  }
  if (!settings.allow_private_targets) PARLEY_TRY(check_host_name(target));
  return normal;
}

Result<CrawlRecord> start_crawl(Services& s, const CrawlSettings& settings, Resolver& resolver,
                                std::string_view account_id, std::string_view agent_id,
                                const NewCrawl& n) {
  PARLEY_TRY(validate_new_crawl(n, settings));
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_TRY(account_agent(c, account_id, agent_id));
  }
  PARLEY_ASSIGN_OR_RETURN(std::string url, check_crawl_url(n.url, resolver, settings));
  CrawlRecord x = new_record(s, account_id, agent_id, "crawl");
  x.url = url;
  x.max_depth = n.max_depth.value_or(settings.max_depth);
  x.include = n.include;
  x.exclude = n.exclude;
  PARLEY_TRY(queue(s, settings, x, n.max_pages));
  return x;
}

Result<CrawlRecord> start_refresh(Services& s, const CrawlSettings& settings,
                                  std::string_view account_id, std::string_view agent_id,
                                  const std::optional<std::string>& url) {
  CrawlRecord x = new_record(s, account_id, agent_id, "refresh");
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_TRY(account_agent(c, account_id, agent_id));
    if (url) {
      if (is_blank(*url)) return ApiError::invalid("'url' must not be empty.");
      PARLEY_ASSIGN_OR_RETURN(x.url, parse_crawl_url(*url));
    }
    PARLEY_ASSIGN_OR_RETURN(auto some,
                            WebsitePageRepo::list_after(c, agent_id, x.url.value_or(""), "", 1));
    if (some.empty())
      return ApiError::invalid(url ? "'url' matches none of the agent's website pages."
                                   : "The agent has no website pages to refresh.");
  }
  x.max_depth = settings.max_depth;
  PARLEY_TRY(queue(s, settings, x, std::nullopt));
  return x;
}

Result<std::vector<CrawlRecord>> list_crawls(Connection& c, std::string_view account_id,
                                             std::string_view agent_id) {
  PARLEY_TRY(account_agent(c, account_id, agent_id));
  return CrawlRepo::list_for_agent(c, agent_id, kListedCrawls);
}

Result<CrawlRecord> get_crawl(Connection& c, std::string_view account_id, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(auto x, CrawlRepo::find(c, id));
  if (!x || x->account_id != account_id)
    return ApiError::not_found("No crawl " + std::string(id) + " in this account.");
  return std::move(*x);
}

Result<CrawlRecord> cancel_crawl(Services& s, std::string_view account_id, std::string_view id) {
  std::optional<CrawlRecord> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto x, get_crawl(c, account_id, id));
    PARLEY_ASSIGN_OR_RETURN(bool cancelled, CrawlRepo::cancel(c, id, s.clock.now_ms()));
    if (!cancelled)
      return ApiError{ErrorCode::kConflict, "The crawl has already ended (" + x.status + ")."};
    PARLEY_ASSIGN_OR_RETURN(out, CrawlRepo::find(c, id));
    return {};
  }));
  return std::move(*out);
}

namespace {
Result<std::optional<CrawlClaim>> claim(Services& s, std::optional<std::string_view> id,
                                        int64_t lease_ms) {
  std::optional<CrawlClaim> out;
  const std::string owner = random_base62(s.random, 22);
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.reset();
    const int64_t now = s.clock.now_ms();
    std::optional<CrawlRecord> next;
    if (id) {
      PARLEY_ASSIGN_OR_RETURN(next, CrawlRepo::find(c, *id));
    } else {
      PARLEY_ASSIGN_OR_RETURN(next, CrawlRepo::next_claimable(c, now));
    }
    if (!next) return {};
    PARLEY_ASSIGN_OR_RETURN(bool taken, CrawlRepo::claim(c, next->id, owner, now, now + lease_ms));
    if (!taken) return {};
    PARLEY_ASSIGN_OR_RETURN(next, CrawlRepo::find(c, next->id));
    if (next) out = CrawlClaim{std::move(*next), owner};
    return {};
  }));
  return out;
}
}  // namespace

Result<std::optional<CrawlClaim>> claim_next_crawl(Services& s, int64_t lease_ms) {
  return claim(s, std::nullopt, lease_ms);
}

Result<std::optional<CrawlClaim>> claim_crawl(Services& s, std::string_view id, int64_t lease_ms) {
  return claim(s, id, lease_ms);
}

Result<bool> renew_crawl(Services& s, const CrawlClaim& claim, int64_t lease_ms) {
  bool out = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(
        out, CrawlRepo::renew(c, claim.crawl.id, claim.owner, s.clock.now_ms() + lease_ms));
    return {};
  }));
  return out;
}

Result<bool> finish_crawl(Services& s, const CrawlClaim& claim, std::string_view status,
                          const std::optional<ApiError>& error) {
  bool out = false;
  std::optional<std::string> code, message;
  if (error) {
    code = std::string(error_code_name(error->code));
    message = error->message;
  }
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(out, CrawlRepo::finish(c, claim.crawl.id, claim.owner, status, code,
                                                   message, s.clock.now_ms()));
    return {};
  }));
  return out;
}

}  // namespace parley
