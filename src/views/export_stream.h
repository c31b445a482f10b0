// An export answered as a stream: the chunked body is written a batch of conversations at a time
// (store/export_queries.h, views/conversation_export.h) by tasks on `pool`, each reading one batch
// on its own connection; when the client is more than Responder::kHighWater behind, the next
// batch waits until it has caught up, so memory stays flat whatever the export's size and no
// thread waits on a slow client. A failure after the first byte cuts the body short
// (Responder::abort) so the client sees an incomplete export, never a silently truncated one.
#pragma once

#include <string>

#include "core/thread_pool.h"
#include "http/message.h"
#include "store/db.h"
#include "views/conversation_export.h"

namespace parley {

// The whole export of the agent's conversations as a streamed response (the caller has checked
// the agent is the account's). `filename`: the download's name (Content-Disposition).
Response export_stream_response(Database& db, ThreadPool& pool, std::string agent_id,
                                ExportRequest request, std::string filename);

}  // namespace parley
