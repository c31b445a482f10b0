#include "model/plans.h"

#include <rapidjson/document.h>

namespace parley {

std::optional<Plan> parse_plan(std::string_view name) {
  if (name == "free") return Plan::kFree;
  if (name == "starter") return Plan::kStarter;
  if (name == "pro") return Plan::kPro;
  if (name == "enterprise") return Plan::kEnterprise;
  return std::nullopt;
}

std::string_view plan_name(Plan plan) {
  switch (plan) {
    case Plan::kFree: return "free";
    case Plan::kStarter: return "starter";
    case Plan::kPro: return "pro";
    case Plan::kEnterprise: return "enterprise";
  }
  return "free";
}

PlanLimits default_limits(Plan plan) {
  switch (plan) {
    case Plan::kFree: return {false, 100, 400'000, 100, 50};
    case Plan::kStarter: return {true, 4'000, 11'000'000, 1'000, 500};
    case Plan::kPro: return {true, 15'000, 33'000'000, 10'000, 5'000};
    case Plan::kEnterprise: return {true, 100'000, 100'000'000, 1'000'000, 50'000};
  }
  return {false, 0, 0, 0, 0};
}

LimitOverrides parse_limit_overrides(std::string_view json) {
  LimitOverrides o;
  if (json.empty()) return o;
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return o;
  auto take = [&](const char* name, std::optional<int64_t>& into) {
    auto it = doc.FindMember(name);
    if (it != doc.MemberEnd() && it->value.IsInt64() && it->value.GetInt64() >= 0)
      into = it->value.GetInt64();
  };
  take("messagesPerMonth", o.messages_per_month);
  take("trainingCharacters", o.training_characters);
  take("contactsPerAgent", o.contacts_per_agent);
  take("crawlPages", o.crawl_pages);
  return o;
}

PlanLimits effective_limits(Plan plan, const LimitOverrides& o) {
  PlanLimits limits = default_limits(plan);
  limits.messages_per_month = o.messages_per_month.value_or(limits.messages_per_month);
  limits.training_characters = o.training_characters.value_or(limits.training_characters);
  limits.contacts_per_agent = o.contacts_per_agent.value_or(limits.contacts_per_agent);
  limits.crawl_pages = o.crawl_pages.value_or(limits.crawl_pages);
  return limits;
}

}  // namespace parley
