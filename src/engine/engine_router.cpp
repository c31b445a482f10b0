#include "engine/engine_router.h"

#include "engine/booking.h"
#include "engine/handoff_intent.h"
#include "engine/offers.h"
#include "engine/turn_analysis.h"

namespace parley {

namespace {
Result<ReplyBlocks> answer(const TextSink& sink, std::string_view text, ReplyBlocks blocks) {
  sink(text);
  return blocks;
}

// The request with the turn's analysis: as given by the chat turn, or made here once for a caller
// outside one.
std::shared_ptr<const ReplyRequest> analysed(std::shared_ptr<const ReplyRequest> request) {
  if (request->analysis) return request;
  auto copy = std::make_shared<ReplyRequest>(*request);
  copy->analysis =
      analyze_turn(copy->message, IntentKeywords(copy->settings), copy->live_chat_offered);
  return copy;
}
}  // namespace

Result<ReplyBlocks> EngineRouter::reply(const ReplyRequest& request, const TextSink& sink) const {
  if (!request.analysis) return reply(*analysed(std::make_shared<ReplyRequest>(request)), sink);
  const AgentSettings& settings = *request.settings;
  const TurnIntents& intents = request.analysis->intents;
  if (intents.live_chat) {
    ReplyBlocks blocks;
    blocks.live_chat = intents.live_chat;
    return answer(sink,
                  *intents.live_chat == "requested" ? kLiveChatRequestedText : kLiveChatOfferText,
                  std::move(blocks));
  }
  if (settings.reply.engine == "openai") return openai_.reply(request, sink);
  return reply_here(request, sink);
}

void EngineRouter::start_reply(std::shared_ptr<const ReplyRequest> request, TextSink sink,
                               ReplyDone done) const {
  request = analysed(std::move(request));
  // Only the provider's replies wait; everything else is answered on this thread.
  if (request->settings->reply.engine == "openai" && !request->analysis->intents.live_chat)
    return openai_.start_reply(std::move(request), std::move(sink), std::move(done));
  done(reply(*request, sink));
}

Result<ReplyBlocks> EngineRouter::reply_here(const ReplyRequest& request, const TextSink& sink) const {
  const AgentSettings& settings = *request.settings;
  const TurnIntents& intents = request.analysis->intents;
  if (settings.handoff.email && intents.asks_for_person) {
    ReplyBlocks blocks;
    blocks.handoff = true;
    return answer(sink, kHandoffText, std::move(blocks));
  }
  std::string written;
  PARLEY_ASSIGN_OR_RETURN(ReplyBlocks blocks,
                          retrieval_.reply(request, [&](std::string_view piece) {
                            written += piece;
                            return sink(piece);
                          }));
  blocks.buttons = intents.buttons;
  blocks.products = intents.products;
  blocks.form = intents.form;
  // The agent asks for contact details when asked to, or when it had no answer.
  if (intents.asks_to_be_contacted || written == settings.reply.fallback_message) {
    blocks.lead_form = lead_form(settings);
  }
  if (intents.asks_for_booking) {
    blocks.booking = booking_offer(settings, request.time_zone, clock_.now_ms());
  }
  return blocks;
}

}  // namespace parley
