// A Database that records one change in the audit log: every write() run through it reads the
// target's snapshot before and after the unit of work, on the same connection and inside the same
// transaction, and appends an entry when the target changed (created, changed or deleted). Reads
// and everything else go to the database it wraps. A front builds one per audited request and
// hands it to the domain function as Services::db, so no domain function knows about auditing.
//
// One per request, used by that request's thread; the state a unit of work needs is shared with
// it, so a unit of work queued with write_then may finish after the request's thread moved on,
// but the AuditedDatabase itself must outlive every use of the Services that hold it.
#pragma once

#include <atomic>
#include <memory>

#include "domain/audit.h"

namespace parley {

class AuditedDatabase final : public Database {
 public:
  // `event` gives the account, actor, action and target; its before/after are filled per write.
  AuditedDatabase(Database& inner, const Clock& clock, Random& random, AuditEvent event,
                  AuditSnapshotFn snapshot, AuditTargetRef target);

  // Whether a write through it appended an entry.
  bool recorded() const { return state_->recorded.load(); }

  Result<std::reference_wrapper<Connection>> read() override { return inner_.read(); }
  Result<void> write(WriteFn fn) override { return inner_.write(wrap(std::move(fn))); }
  void write_async(WriteFn fn) override { inner_.write_async(std::move(fn)); }
  void write_then(WriteFn fn, std::function<void(Result<void>)> done) override {
    inner_.write_then(wrap(std::move(fn)), std::move(done));
  }
  Result<void> write_volatile(WriteFn fn) override { return inner_.write_volatile(std::move(fn)); }
  void wait_for_queued_writes() override { inner_.wait_for_queued_writes(); }
  std::string_view backend() const override { return inner_.backend(); }
  bool shared_by_nodes() const override { return inner_.shared_by_nodes(); }
  Result<void> hold_for_serving() override { return inner_.hold_for_serving(); }
  uint64_t auth_epoch() const override { return inner_.auth_epoch(); }
  void bump_auth_epoch() override { inner_.bump_auth_epoch(); }
  uint64_t data_epoch() const override { return inner_.data_epoch(); }

 private:
  struct State {
    State(const Clock& c, Random& r, AuditEvent e, AuditSnapshotFn s, AuditTargetRef t)
        : clock(c), random(r), event(std::move(e)), snapshot(std::move(s)), target(std::move(t)) {}
    const Clock& clock;
    Random& random;
    AuditEvent event;
    AuditSnapshotFn snapshot;
    AuditTargetRef target;
    std::atomic<bool> recorded{false};
  };
  WriteFn wrap(WriteFn fn) const;

  Database& inner_;
  std::shared_ptr<State> state_;
};

}  // namespace parley
