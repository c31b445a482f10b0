// The chat flow's services as the running server has them: one place, so that the API and the
// widget channel run chats with the same engine, knowledge, limits and hand-off mailer.
#pragma once

#include "api/app.h"
#include "domain/chat.h"

namespace parley {

inline ChatServices chat_services(App& app) {
  ChatServices s{app.db, app.clock, app.random, app.engine, app.retriever, app.chat};
  s.mailer = app.mailer;
  s.slots = app.chat_slots;
  s.agents = app.agent_cache;
  return s;
}

}  // namespace parley
