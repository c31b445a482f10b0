// Plans and their limits. Every number is a default that an account may override (its `limits`
// JSON object, set by an operator): {"messagesPerMonth": .., "trainingCharacters": ..,
// "contactsPerAgent": .., "crawlPages": ..}.
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
  int64_t crawl_pages;  // a website crawl's page cap when it names none (and its most)
};

PlanLimits default_limits(Plan plan);
// An account's overrides of its plan's limits, each absent when not overridden.
struct LimitOverrides {
  std::optional<int64_t> messages_per_month;
  std::optional<int64_t> training_characters;
  std::optional<int64_t> contacts_per_agent;
  std::optional<int64_t> crawl_pages;
};

// Reads the overrides JSON object as an operator set it (may be empty). Members that are not
// non-negative integers, and text that is not an object, override nothing.
LimitOverrides parse_limit_overrides(std::string_view json);

// The plan's limits with the account's overrides applied.
PlanLimits effective_limits(Plan plan, const LimitOverrides& overrides);

}  // namespace parley
