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
  HandoffSettings handoff = read_handoff_settings(request.settings_json);
  auto live_chat =
      known_live_chat(handoff, request.settings.engine, request.live_chat_offered, request.message);
  if (live_chat) {
    ReplyBlocks blocks;
    blocks.live_chat = live_chat;
    return answer(sink, *live_chat == "requested" ? kLiveChatRequestedText : kLiveChatOfferText,
                  std::move(blocks));
  }
  if (request.settings.engine == "openai") return openai_.reply(request, sink);
  if (handoff.email && asks_for_person(request.message)) {
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
  blocks.buttons = match_buttons(request.settings_json, request.message);
  blocks.products = match_products(request.settings_json, request.message);
  blocks.form_json = match_form(request.settings_json, request.message);
  // The agent asks for contact details when asked to, or when it had no answer.
  if (asks_to_be_contacted(request.settings_json, request.message) ||
      written == request.settings.fallback_message) {
    blocks.lead_form_json = lead_form(request.settings_json);
  }
  if (asks_for_booking(request.settings_json, request.message)) {
    blocks.booking_json = booking_offer(request.settings_json, request.time_zone, clock_.now_ms());
  }
  return blocks;
}

}  // namespace parley
