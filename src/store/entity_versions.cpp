#include "store/entity_versions.h"

#include <functional>
#include <mutex>

#include "store/postgres/pg_database.h"
#include "store/sqlite/sqlite_database.h"

namespace parley {

EntitySource* entity_source(Database& db) { return dynamic_cast<EntitySource*>(&db); }

void EntityVersions::bump_all() {
  for (size_t i = 0; i < kSlots; ++i) slots_[i].fetch_add(1, std::memory_order_acq_rel);
}

size_t EntityVersions::slot(Entity kind, std::string_view id) {
  const size_t h = std::hash<std::string_view>{}(id);
  return (h ^ (static_cast<size_t>(kind) * 0x9E3779B97F4A7C15ull)) % kSlots;
}

void CommitObservers::add(CommitObserver observer) {
  std::unique_lock lock(mu_);
  observers_.push_back(std::move(observer));
}

bool CommitObservers::publish(const UnitOfWork& work, EntityVersions& versions) {
  bool auth = work.everything();
  if (work.everything()) versions.bump_all();
  std::shared_lock lock(mu_);
  for (const EntityChange& change : work.changes()) {
    if (change.kind == Entity::kAccount || change.kind == Entity::kKey) auth = true;
    const uint64_t version = versions.bump(change.kind, change.id);
    for (const auto& observer : observers_) observer(change, version);
  }
  return auth;
}

}  // namespace parley
