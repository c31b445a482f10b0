#include "domain/audit_step.h"

#include "core/json.h"

namespace parley {

AuditStep::AuditStep(Database& db, const Clock& clock, Random& random, AuditEvent event,
                     AuditSnapshotFn snapshot, AuditTargetRef target)
    : db_(db),
      clock_(clock),
      random_(random),
      event_(std::move(event)),
      snapshot_(std::move(snapshot)),
      target_(std::move(target)) {
  event_.account_id = target_.account_id;
  if (!target_.id.empty()) event_.target_id = target_.id;
}

Result<void> AuditStep::begin() {
  if (!snapshot_ || target_.id.empty() || target_.account_id.empty()) return {};
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db_.read());
  PARLEY_ASSIGN_OR_RETURN(before_, snapshot_(c, target_));
  audited_.emplace(db_, clock_, random_, event_, snapshot_, target_);
  return {};
}

void AuditStep::set_account(std::string account_id) {
  target_.account_id = account_id;
  event_.account_id = std::move(account_id);
}

Result<void> AuditStep::finish(std::string_view created_id,
                               const std::optional<std::string>& details) {
  if (audited_ && audited_->recorded()) return {};
  const bool created = target_.id.empty();
  if (created && !created_id.empty()) {
    target_.id = std::string(created_id);
    event_.target_id = target_.id;
  }
  if (event_.account_id.empty()) return {};
  if (snapshot_ && !target_.id.empty()) {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, db_.read());
    PARLEY_ASSIGN_OR_RETURN(auto after, snapshot_(c, target_));
    if (!created && after == before_) return {};  // nothing changed
    event_.before = before_;
    event_.after = std::move(after);
  } else {
    event_.details = details;
  }
  return db_.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(append_audit(c, clock_, random_, event_));
    return {};
  });
}

std::string audit_created_id(std::string_view json) {
  auto doc = parse_json_value(json);
  if (!doc.ok() || !doc->IsObject()) return "";
  const rapidjson::Value* v = &*doc;
  auto data = doc->FindMember("data");
  if (data != doc->MemberEnd() && data->value.IsObject()) v = &data->value;
  auto id = v->FindMember("id");
  return id != v->MemberEnd() && id->value.IsString() ? std::string(id->value.GetString()) : "";
}

}  // namespace parley
