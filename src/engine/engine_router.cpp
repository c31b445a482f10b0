#include "engine/engine_router.h"

#include "engine/booking.h"
#include "engine/handoff_intent.h"
#include "engine/offers.h"

namespace parley {

namespace {
Result<ReplyBlocks> answer(const TextSink& sink, std::string_view text, ReplyBlocks blocks) {
  sink(text);
  return blocks;
}
}  // namespace

Result<ReplyBlocks> EngineRouter::reply(const ReplyRequest& request, const TextSink& sink) const {
  const AgentSettings& settings = *request.settings;
  auto live_chat = known_live_chat(settings.handoff, settings.reply.engine,
                                   request.live_chat_offered, request.message);
  if (live_chat) {
    ReplyBlocks blocks;
    blocks.live_chat = live_chat;
    return answer(sink, *live_chat == "requested" ? kLiveChatRequestedText : kLiveChatOfferText,
                  std::move(blocks));
  }
  if (settings.reply.engine == "openai") return openai_.reply(request, sink);
  return reply_here(request, sink);
}

void EngineRouter::start_reply(std::shared_ptr<const ReplyRequest> request, TextSink sink,
                               ReplyDone done) const {
  const AgentSettings& settings = *request->settings;
  bool live_chat = known_live_chat(settings.handoff, settings.reply.engine, request->live_chat_offered,
                                   request->message)
                       .has_value();
  // Only the provider's replies wait; everything else is answered on this thread.
  if (settings.reply.engine == "openai" && !live_chat)
    return openai_.start_reply(std::move(request), std::move(sink), std::move(done));
  done(reply(*request, sink));
}

Result<ReplyBlocks> EngineRouter::reply_here(const ReplyRequest& request, const TextSink& sink) const {
  const AgentSettings& settings = *request.settings;
  if (settings.handoff.email && asks_for_person(request.message)) {
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
  blocks.buttons = match_buttons(settings, request.message);
  blocks.products = match_products(settings, request.message);
  blocks.form = match_form(settings, request.message);
  // The agent asks for contact details when asked to, or when it had no answer.
  if (asks_to_be_contacted(settings, request.message) ||
      written == settings.reply.fallback_message) {
    blocks.lead_form = lead_form(settings);
  }
  if (asks_for_booking(settings, request.message)) {
    blocks.booking = booking_offer(settings, request.time_zone, clock_.now_ms());
  }
  return blocks;
}

}  // namespace parley
