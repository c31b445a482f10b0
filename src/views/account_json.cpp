#include "views/account_json.h"

namespace parley {

void write_account_json(JsonWriter& w, const Account& a) {
  PlanLimits l = effective_limits(a.plan, a.overrides);
  w.begin_object();
  w.key("id").string(a.id);
  w.key("name").string(a.name);
  w.key("plan").string(plan_name(a.plan));
  w.key("limits").begin_object();
  w.key("apiAccess").boolean(l.api_access);
  w.key("messagesPerMonth").integer(l.messages_per_month);
  w.key("trainingCharacters").integer(l.training_characters);
  w.key("contactsPerAgent").integer(l.contacts_per_agent);
  w.key("crawlPages").integer(l.crawl_pages);
  w.end_object();
  w.key("timeZone").string(a.time_zone);
  w.key("retentionDays");
  if (a.retention_days)
    w.integer(*a.retention_days);
  else
    w.null();
  w.key("createdAt").timestamp(a.created_at);
  w.key("updatedAt").timestamp(a.updated_at);
  w.end_object();
}

}  // namespace parley
