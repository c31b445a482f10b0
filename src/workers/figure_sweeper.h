// Ends, for the figures, the conversations idle for 30 minutes (domain/analytics.h
// end_idle_conversations): every ten seconds, a batch at a time, each conversation in its own
// short transaction. Any node may run it at once with others: ending a conversation twice
// changes nothing. Owns one thread; construct to start, destroy to stop.
#pragma once

#include "core/periodic.h"
#include "store/services.h"

namespace parley {

class FigureSweeper {
 public:
  explicit FigureSweeper(Services s);

 private:
  void sweep();

  Services s_;
  Periodic every_ten_seconds_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
