// Plans and their limits. Every number is a default that an account may override (its `limits`
// JSON object, set by an operator): {"messagesPerMonth": .., "trainingCharacters": ..,
// "contactsPerAgent": ..}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

enum class Plan { kFree, kStarter, kPro, kEnterprise };

std::optional<Plan> parse_plan(std::string_view name);
std::string_view plan_name(Plan plan);

struct PlanLimits {
  bool api_access;
  int64_t messages_per_month;
  int64_t training_characters;  // per agent
  int64_t contacts_per_agent;
};

PlanLimits default_limits(Plan plan);
// The plan's limits with the account's overrides (a JSON object, may be empty) applied.
PlanLimits effective_limits(Plan plan, std::string_view overrides_json);

}  // namespace parley
