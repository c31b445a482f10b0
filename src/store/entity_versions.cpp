#include "store/entity_versions.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <utility>

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

EntityVersions::EntityVersions(std::atomic<uint64_t>* slots)
    : slots_(slots), in_flight_(new std::atomic<uint32_t>[kSlots]) {
  for (size_t i = 0; i < kSlots; ++i) in_flight_[i].store(0, std::memory_order_relaxed);
}

namespace {
// A change that an API key's authentication reads (the auth epoch, db.h): an account (its plan,
// its state) or a key.
bool moves_auth(const EntityChange& change) {
  return change.kind == Entity::kAccount || change.kind == Entity::kKey;
}
}  // namespace

CommitInFlight::CommitInFlight(EntityVersions& versions, const UnitOfWork& work, size_t mark)
    : versions_(&versions), all_(work.everything_since(mark)) {
  // The slots first, then the marks: nothing that can fail once a mark is taken.
  const auto changes = work.changes_since(mark);
  auto marked = [](const EntityChange& c) { return !(c.kind == Entity::kAgent && c.counts); };
  const auto n = std::count_if(changes.begin(), changes.end(), marked);
  if (n == 0 && !all_) return;  // a chat turn's counters alone: nothing to mark, nothing allocated
  slots_.reserve(static_cast<size_t>(n));
  for (const EntityChange& change : changes) {
    if (!marked(change)) continue;
    slots_.push_back(EntityVersions::slot(change.kind, change.id));
    auth_ = auth_ || moves_auth(change);
  }
  if (all_) versions.all_in_flight_.fetch_add(1, std::memory_order_acq_rel);
  if (auth_) versions.auth_in_flight_.fetch_add(1, std::memory_order_acq_rel);
  for (size_t s : slots_) versions.in_flight_[s].fetch_add(1, std::memory_order_acq_rel);
}

CommitInFlight& CommitInFlight::operator=(CommitInFlight&& o) noexcept {
  if (this == &o) return *this;
  end();
  versions_ = std::exchange(o.versions_, nullptr);
  slots_ = std::move(o.slots_);
  o.slots_.clear();
  all_ = std::exchange(o.all_, false);
  auth_ = std::exchange(o.auth_, false);
  return *this;
}

void CommitInFlight::end() {
  if (versions_ == nullptr) return;
  for (size_t s : slots_) versions_->in_flight_[s].fetch_sub(1, std::memory_order_acq_rel);
  if (all_) versions_->all_in_flight_.fetch_sub(1, std::memory_order_acq_rel);
  if (auth_) versions_->auth_in_flight_.fetch_sub(1, std::memory_order_acq_rel);
  slots_.clear();
  all_ = false;
  auth_ = false;
  versions_ = nullptr;
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
    auth = auth || moves_auth(change);
    const uint64_t version = versions.bump(change.kind, change.id);
    for (const auto& observer : observers_) observer(change, version);
  }
  return auth;
}

}  // namespace parley
