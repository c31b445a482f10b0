// What the widget channel's handlers are given (/widget/v1): the database, clock and randomness,
// the chat services shared with the API (the same engine, knowledge, limits and mailer), the
// channel's options and its per-address limits. Built once by the server (src/server) and shared
// by every handler thread.
#pragma once

#include "core/clock.h"
#include "core/random.h"
#include "core/thread_pool.h"
#include "domain/chat.h"
#include "store/db.h"
#include "widget/widget_options.h"

namespace parley {

class ChangeFeed;
class SecretBox;
class WidgetLimits;

struct WidgetContext {
  Database& db;
  const Clock& clock;
  Random& random;
  ThreadPool& reply_pool;  // computes replies; nothing waits on it (domain/chat_runner.h)
  ChatServices chat;
  WidgetOptions widget = {};
  WidgetLimits* widget_limits = nullptr;  // limits of the anonymous endpoints; null: none
  ChangeFeed* feed = nullptr;             // the conversation's live stream (views/change_feed.h)
  const SecretBox* secret_box = nullptr;  // opens agents' identity secrets; null: none verify
};

}  // namespace parley
