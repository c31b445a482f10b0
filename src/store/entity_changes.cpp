#include "store/entity_changes.h"

#include <algorithm>

#include "store/postgres/pg_connection.h"
#include "store/sqlite/sqlite_connection.h"

namespace parley {

void UnitOfWork::changed(Entity kind, std::string_view id, std::optional<AgentCounts> counts) {
  if (!active_) return;  // not a write transaction's (a read connection): nothing to publish
  for (size_t i = unit_start_; i < changes_.size(); ++i) {
    EntityChange& c = changes_[i];
    if (c.kind != kind || c.id != id) continue;
    if (!counts)
      c.counts.reset();  // the whole entity changed
    else if (c.counts && counts->seq > c.counts->seq)
      c.counts = counts;
    return;
  }
  changes_.push_back(EntityChange{kind, std::string(id), counts});
}

std::span<const EntityChange> UnitOfWork::changes_since(size_t mark) const {
  const size_t from = std::min(changes_.size(), mark & ~kEverythingBit);
  return std::span<const EntityChange>(changes_).subspan(from);
}

void UnitOfWork::truncate(size_t mark) {
  everything_ = (mark & kEverythingBit) != 0;
  changes_.resize(std::min(changes_.size(), mark & ~kEverythingBit));
  unit_start_ = std::min(unit_start_, changes_.size());
}

void UnitOfWork::clear_changes() {
  changes_.clear();
  unit_start_ = 0;
  everything_ = false;
}

void UnitOfWork::begin() {
  deferred_.clear();
  active_ = true;
  unit_start_ = changes_.size();
}

Deferred* UnitOfWork::find(std::string_view key) {
  for (auto& [k, work] : deferred_) {
    if (k == key) return work.get();
  }
  return nullptr;
}

Result<void> UnitOfWork::add(Connection& c, std::string key, std::unique_ptr<Deferred> work) {
  if (!active_) return work->run(c);
  deferred_.emplace_back(std::move(key), std::move(work));
  return {};
}

Result<void> UnitOfWork::run_now(Connection& c, std::string_view prefix) {
  for (size_t i = 0; i < deferred_.size();) {
    if (deferred_[i].first.rfind(prefix, 0) != 0) {
      ++i;
      continue;
    }
    // Taken out first: what it runs may defer more work (kept for later).
    std::unique_ptr<Deferred> work = std::move(deferred_[i].second);
    deferred_.erase(deferred_.begin() + static_cast<std::ptrdiff_t>(i));
    PARLEY_TRY(work->run(c));
  }
  return {};
}

Result<void> UnitOfWork::finish(Connection& c) {
  Result<void> r;  // active_ stays set while the deferred work runs: what it changes is recorded
  // By index: work run here may defer more, which runs after it.
  for (size_t i = 0; i < deferred_.size() && r.ok(); ++i) {
    std::unique_ptr<Deferred> work = std::move(deferred_[i].second);
    if (work) r = work->run(c);
  }
  deferred_.clear();
  return r;
}

void UnitOfWork::abandon() {
  deferred_.clear();
  active_ = false;
}

UnitOfWork* work_of(Connection& c) {
  if (auto* sqlite = dynamic_cast<SqliteConnection*>(&c)) return &sqlite->work();
  if (auto* pg = dynamic_cast<PgConnection*>(&c)) return &pg->work();
  return nullptr;
}

void record_change(Connection& c, Entity kind, std::string_view id,
                   std::optional<AgentCounts> counts) {
  if (UnitOfWork* work = work_of(c)) work->changed(kind, id, counts);
}

Deferred* find_deferred(Connection& c, std::string_view key) {
  UnitOfWork* work = work_of(c);
  return work != nullptr ? work->find(key) : nullptr;
}

Result<void> defer(Connection& c, std::string key, std::unique_ptr<Deferred> work) {
  UnitOfWork* unit = work_of(c);
  if (unit == nullptr) return work->run(c);
  return unit->add(c, std::move(key), std::move(work));
}

Result<void> run_deferred_now(Connection& c, std::string_view prefix) {
  UnitOfWork* work = work_of(c);
  if (work == nullptr || !work->active()) return {};
  return work->run_now(c, prefix);
}

}  // namespace parley
