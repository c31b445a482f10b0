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
    case Plan::kFree: return {false, 100, 400'000, 100};
    case Plan::kStarter: return {true, 4'000, 11'000'000, 1'000};
    case Plan::kPro: return {true, 15'000, 33'000'000, 10'000};
    case Plan::kEnterprise: return {true, 100'000, 100'000'000, 1'000'000};
  }
  return {false, 0, 0, 0};
}

PlanLimits effective_limits(Plan plan, std::string_view overrides_json) {
  PlanLimits limits = default_limits(plan);
  if (overrides_json.empty()) return limits;
  rapidjson::Document doc;
  doc.Parse(overrides_json.data(), overrides_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return limits;
  auto take = [&](const char* name, int64_t& into) {
    auto it = doc.FindMember(name);
    if (it != doc.MemberEnd() && it->value.IsInt64() && it->value.GetInt64() >= 0)
      into = it->value.GetInt64();
  };
  take("messagesPerMonth", limits.messages_per_month);
  take("trainingCharacters", limits.training_characters);
  take("contactsPerAgent", limits.contacts_per_agent);
  return limits;
}

}  // namespace parley
