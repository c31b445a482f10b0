// Fair shares of the delivery senders: which due deliveries to start, given what is already in
// flight, so that a slow or unanswering receiver holds only its own few senders. Each webhook
// (endpoint) may have at most `per_webhook` attempts in flight and each account `per_account`;
// webhooks with due work take turns, one delivery each per round, in the order of their earliest
// due delivery. A tarpit endpoint thus delays only its own deliveries, each attempt bounded by
// the delivery timeout, while every other endpoint keeps its turn.
//
// Plain values and a pure function; InFlight is guarded by its owner.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "store/webhook_repo.h"

namespace parley {

struct FairShareLimits {
  size_t per_webhook = 4;  // --webhook-concurrency-per-endpoint
  size_t per_account = 8;  // --webhook-concurrency-per-account
};

// Attempts in flight, by webhook id and by account id.
struct InFlight {
  std::map<std::string, size_t> by_webhook;
  std::map<std::string, size_t> by_account;

  void add(const DueDelivery& d);
  void remove(const DueDelivery& d);
};

// The indexes into `due` (earliest first, as WebhookRepo::due_per_webhook returns them) of at most
// `capacity` deliveries to start now, taken round-robin over the webhooks within the limits.
std::vector<size_t> pick_fairly(const std::vector<DueDelivery>& due, const InFlight& in_flight,
                                const FairShareLimits& limits, size_t capacity);

}  // namespace parley
