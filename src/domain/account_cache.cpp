#include "domain/account_cache.h"

#include <mutex>

namespace parley {

Result<std::shared_ptr<const Account>> AccountCache::find(std::string_view account_id) {
  // Read before loading: a write committed meanwhile leaves the entry tagged older, so the next
  // find reloads it.
  const uint64_t version = source_ ? source_->entity_version(Entity::kAccount, account_id) : 0;
  if (source_) {
    std::shared_lock lock(mu_);
    auto it = entries_.find(account_id);
    if (it != entries_.end() && it->second.version == version) return it->second.account;
  }
  loads_.fetch_add(1, std::memory_order_relaxed);
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db_.read());
  PARLEY_ASSIGN_OR_RETURN(auto loaded, AccountRepo::find(c, account_id));
  if (!loaded) return std::shared_ptr<const Account>();
  auto account = std::make_shared<const Account>(std::move(*loaded));
  if (source_) {
    std::unique_lock lock(mu_);
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_.insert_or_assign(std::string(account_id), Entry{version, account});
  }
  return account;
}

}  // namespace parley
