// JSON of website crawls (the Crawl resource of the console and of parley admin). Stateless.
#pragma once

#include "core/json.h"
#include "store/crawl_repo.h"

namespace parley {

// {id, agentId, kind, url, status, maxPages, maxDepth, include, exclude,
//  progress: {found, fetched, skipped, failed, unchanged, removed, characters},
//  error: {code, message} | null, createdAt, updatedAt, finishedAt}
void write_crawl_json(JsonWriter& w, const CrawlRecord& crawl);

// {"data": the crawl}
std::string crawl_data_json(const CrawlRecord& crawl);

}  // namespace parley
