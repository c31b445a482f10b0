// The website crawler's options, shared by `parley serve` and `parley admin source crawl|refresh`
// (each also an environment variable): page and depth caps, politeness, the time limit and size
// cap of one page, the workers and their lease.
#pragma once

#include <CLI/CLI.hpp>

#include "domain/crawls.h"
#include "workers/crawler.h"

namespace parley {

struct CrawlOptions {
  CrawlSettings settings;
  CrawlerOptions crawler;
  // A page that tells site owners who crawls them, named in the User-Agent; empty: none.
  std::string info_url;
};

// `serve`: every option, the workers' among them.
void add_crawl_serve_options(CLI::App& cmd, CrawlOptions& options);
// An admin command that may run a crawl in-process (--wait): the caps and the fetch options.
void add_crawl_admin_options(CLI::App& cmd, CrawlOptions& options);
// Fills what follows from other options: the User-Agent, private targets in both halves.
void finish_crawl_options(CrawlOptions& options, bool allow_private_targets);

}  // namespace parley
