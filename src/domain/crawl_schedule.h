// Automatic refresh (the agent setting `knowledgeRefresh`: off, daily or weekly): a refresh job
// of all of an agent's website sources is queued once a day or a week has passed since its last
// crawl or refresh was queued, when it has website sources and no job under way. The check and
// the insert hold the agent's row, so several nodes checking at once queue one job.
// Stateless functions over Services.
#pragma once

#include "domain/crawls.h"

namespace parley {

// Queues the refreshes that are due now; returns how many.
Result<int64_t> queue_due_refreshes(Services& s, const CrawlSettings& settings);

}  // namespace parley
