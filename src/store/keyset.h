// Keyset pagination shared by the conversation, lead and contact lists: newest first by a
// creation time, ties broken by id, so a page is found by an index seek from the last item of the
// previous page and costs the same at any depth. New rows sort before page 1, so paging while
// items are added never duplicates or drops one. Stateless helpers; thread-safe.
//
// `since` filters on an activity column that is never earlier than the creation time (last
// message, last submission, last change). A page with `since` is read in two parts, each from an
// index (see docs/decisions/data.md): items created at or after `since` (all of them match) from
// the ordered index; then older items active since then, either from the activity index when few
// items are active (an index-only top-N), or from the ordered index when many are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.h"

namespace parley {

// Where a page starts: strictly after the item with this (time, id).
struct KeysetPosition {
  int64_t time = 0;
  std::string id;
};

struct PageQuery {
  int64_t limit = 20;
  std::optional<KeysetPosition> after;
  std::optional<int64_t> since;  // only items whose activity column is at or after it
};

template <typename T>
struct Page {
  std::vector<T> items;
  bool has_more = false;
};

// The table a list reads. Needs indexes (scope..., time DESC, id DESC) and
// (scope..., since, time, id).
struct KeysetTable {
  std::string_view table;
  std::string_view columns;       // the select list handed to on_row
  std::string_view time_column;   // creation time: the order
  std::string_view since_column;  // activity time: what `since` filters
};

// Active items up to which the activity index is used for the older part of a `since` page.
inline constexpr int64_t kActiveSetLimit = 2000;

// Calls `on_row` for up to limit + 1 rows of the page, in page order (the extra row tells
// hasMore). `scope` is a condition on $1..$n given by `scope_params` (e.g. "agent_id = $1").
Result<void> query_keyset_page(Connection& c, const KeysetTable& t, std::string_view scope,
                               const std::vector<DbValue>& scope_params, const PageQuery& q,
                               const RowFn& on_row);

// Cuts the extra row read by query_keyset_page and sets has_more.
template <typename T>
Page<T> finish_page(std::vector<T> rows, int64_t limit) {
  Page<T> page;
  page.has_more = static_cast<int64_t>(rows.size()) > limit;
  if (page.has_more) rows.resize(static_cast<size_t>(limit));
  page.items = std::move(rows);
  return page;
}

}  // namespace parley
