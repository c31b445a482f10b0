// EngineRouter: the ReplyEngine the chat flow calls. It picks the agent's engine by its `engine`
// setting (`retrieval`, the default, or `openai`) and acts on the turn's intents, decided once
// before it runs (engine/turn_analysis.h; the request carries them): a user who accepts a
// live-chat offer gets live chat `requested`. For the `retrieval` engine it also answers a
// message asking for a person with the hand-off (live chat offered when the agent has
// `liveChat`, else a hand-off by email to `handoffEmail`) and attaches the buttons, products,
// form, lead form and booking slots the message calls for; the `openai` engine decides those
// through its tools. It decides nothing from the message's text itself.
// Holds references to engines that outlive it; reply() is safe from many threads.
#pragma once

#include "core/clock.h"
#include "engine/reply_engine.h"

namespace parley {

class EngineRouter final : public ReplyEngine {
 public:
  EngineRouter(const Clock& clock, const ReplyEngine& retrieval, const ReplyEngine& openai)
      : clock_(clock), retrieval_(retrieval), openai_(openai) {}

  Result<ReplyBlocks> reply(const ReplyRequest& request, const TextSink& sink) const override;
  void start_reply(std::shared_ptr<const ReplyRequest> request, TextSink sink,
                   ReplyDone done) const override;

 private:
  // The built-in engine's reply with what the router adds to it.
  Result<ReplyBlocks> reply_here(const ReplyRequest& request, const TextSink& sink) const;

  const Clock& clock_;
  const ReplyEngine& retrieval_;
  const ReplyEngine& openai_;
};

}  // namespace parley
