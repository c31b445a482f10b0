// Keyset pagination shared by the conversation, lead and contact lists: newest first by a
// creation time, ties broken by id, so a page is found by an index seek from the last item of the
// previous page and costs the same at any depth. New rows sort before page 1, so paging while
// items are added never duplicates or drops one. Stateless helpers; thread-safe.
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

// Appends to `sql` (which must end inside a WHERE clause, e.g. "... WHERE agent_id = $1") the
// keyset and since conditions, the order and the limit (one more than asked, to tell hasMore),
// adding their values to `params`.
void append_keyset(std::string& sql, std::vector<DbValue>& params, const PageQuery& q,
                   std::string_view time_column, std::string_view since_column);

// Cuts the extra row read by append_keyset's limit and sets has_more.
template <typename T>
Page<T> finish_page(std::vector<T> rows, int64_t limit) {
  Page<T> page;
  page.has_more = static_cast<int64_t>(rows.size()) > limit;
  if (page.has_more) rows.resize(static_cast<size_t>(limit));
  page.items = std::move(rows);
  return page;
}

}  // namespace parley
