// The import worker's step (workers/workspace_importer.h runs it in a loop): claims the oldest
// queued workspace page (or one whose claim ran out on a node that stopped), reads it from Notion
// with the agent's token and stores what it found, in one transaction with the page's row:
// - new text: a `workspace` source (title = the page's title, url = the page's url, text = its
//   blocks as headed text) created, or the page's source's text replaced and trained again;
// - the same `last_edited_time` as the text the source holds: nothing changes (no training);
// - the page gone (404: deleted or no longer shared; archived; in the trash): its source is
//   deleted with what the agent learned from it;
// - an error (token refused, Notion unreachable, a page with no text): a first import becomes a
//   `failed` source whose `error` says why; a page imported before keeps its source as it is;
// - the plan's training characters exceeded: nothing added, the row says character_limit_exceeded.
// Thread-safe; the calling thread blocks on Notion (retries and Retry-After included).
#pragma once

#include "domain/workspace.h"
#include "knowledge/source_listener.h"

namespace parley {

struct ImportStep {
  bool claimed = false;      // false: nothing was waiting
  WorkspacePageRecord page;  // the row as left
};

// `wait` pauses the worker (false when it is stopping); `lease_ms` is how long a claim lasts
// between renewals (each Notion request renews it once a third of it has passed).
Result<ImportStep> import_next_page(Services& s, WorkspaceServices& w, SourceListener* listener,
                                    const NotionWait& wait, int64_t lease_ms);

// The page's text cut to the longest run of whole lines within `max_chars` code points.
std::string cut_page_text(std::string text, size_t max_chars);

}  // namespace parley
