// parley admin source crawl | refresh: an operator queues a crawl of a website for an agent, or
// a refresh of its website sources, and prints the Crawl. With --wait the command runs the job
// itself, in this process, claiming it with the same lease a server's crawler takes (so it is
// safe beside running servers; when a server took it first, the command waits for it to end),
// and prints the finished Crawl. The pages it adds are trained by a running server's trainer.
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "cli/crawl_options.h"
#include "domain/crawls.h"
#include "store/agent_repo.h"
#include "views/crawl_json.h"

namespace parley {

namespace {
struct CrawlArgs {
  std::string agent;
  std::string url;
  int64_t max_pages = 0;
  int64_t max_depth = 0;
  std::vector<std::string> include, exclude;
  bool wait = false;
  bool allow_private = false;
  CrawlOptions options;
};

Result<AgentRecord> any_agent(Services& s, const std::string& id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, id));
  if (!agent) return ApiError::not_found("No agent " + id + ".");
  return std::move(*agent);
}

// The job as queued, or (--wait) as it ended.
Result<std::string> finish(Services& s, CrawlArgs& a, SystemResolver& resolver,
                           const CrawlRecord& queued) {
  if (!a.wait) return crawl_data_json(queued);
  Crawler crawler(s, a.options.crawler, resolver, nullptr);
  PARLEY_ASSIGN_OR_RETURN(auto ended, crawler.run_crawl(queued.id));
  return crawl_data_json(ended);
}
}  // namespace

void add_admin_crawl_commands(CLI::App& source, GlobalOptions& global, CommandRun& run) {
  auto a = std::make_shared<CrawlArgs>();

  auto* crawl = source.add_subcommand("crawl", "Crawl a website into an agent's website sources");
  crawl->add_option("--agent", a->agent, "Agent id")->required();
  crawl->add_option("--url", a->url, "The page or sitemap to start from")->required();
  crawl->add_option("--max-pages", a->max_pages, "Pages to fetch at most (default: the plan's)");
  crawl->add_option("--max-depth", a->max_depth, "Links to follow from the start at most");
  crawl->add_option("--include", a->include, "Only paths matching (robots.txt syntax); repeatable");
  crawl->add_option("--exclude", a->exclude,
                    "Never paths matching (robots.txt syntax); repeatable");
  crawl->add_flag("--wait", a->wait, "Run the crawl here and print it when it has ended");
  crawl->add_flag("--allow-private-targets", a->allow_private,
                  "Let the crawl reach private and loopback addresses (tests and local "
                  "development only)");
  add_crawl_admin_options(*crawl, a->options);
  crawl->callback([&, a, crawl] {
    run = [&, a, crawl] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        finish_crawl_options(a->options, a->allow_private);
        PARLEY_ASSIGN_OR_RETURN(auto agent, any_agent(s, a->agent));
        NewCrawl n;
        n.url = a->url;
        if (crawl->count("--max-pages")) n.max_pages = a->max_pages;
        if (crawl->count("--max-depth")) n.max_depth = a->max_depth;
        n.include = a->include;
        n.exclude = a->exclude;
        SystemResolver resolver;
        PARLEY_ASSIGN_OR_RETURN(auto queued, start_crawl(s, a->options.settings, resolver,
                                                         agent.account_id, agent.id, n));
        return finish(s, *a, resolver, queued);
      });
    };
  });

  auto* refresh = source.add_subcommand(
      "refresh", "Revalidate an agent's website sources (all, or those under --url)");
  refresh->add_option("--agent", a->agent, "Agent id")->required();
  refresh->add_option("--url", a->url,
                      "One page, or the address every page to refresh starts with");
  refresh->add_flag("--wait", a->wait, "Run the refresh here and print it when it has ended");
  refresh->add_flag("--allow-private-targets", a->allow_private,
                    "Let the refresh reach private and loopback addresses (tests and local "
                    "development only)");
  add_crawl_admin_options(*refresh, a->options);
  refresh->callback([&, a, refresh] {
    run = [&, a, refresh] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        finish_crawl_options(a->options, a->allow_private);
        PARLEY_ASSIGN_OR_RETURN(auto agent, any_agent(s, a->agent));
        std::optional<std::string> url;
        if (refresh->count("--url")) url = a->url;
        SystemResolver resolver;
        PARLEY_ASSIGN_OR_RETURN(
            auto queued, start_refresh(s, a->options.settings, agent.account_id, agent.id, url));
        return finish(s, *a, resolver, queued);
      });
    };
  });
}

}  // namespace parley
