#include "views/chat_json.h"

namespace parley {

void write_chat_reply_json(JsonWriter& w, const ChatReply& r) {
  const ReplyBlocks& b = r.blocks;
  w.begin_object();
  w.key("reply").string(r.reply);
  w.key("conversationId").string(r.conversation_id);
  w.key("sessionId").string(r.session_id);
  w.key("sources").begin_array();
  for (const auto& s : b.sources)
    w.begin_object().key("title").string(s.title).key("url").string_or_null(s.url).end_object();
  w.end_array();
  w.key("followUps").begin_array();
  for (const auto& q : b.follow_ups) w.string(q);
  w.end_array();
  w.key("buttons").begin_array();
  for (const auto& x : b.buttons)
    w.begin_object().key("label").string(x.label).key("url").string(x.url).end_object();
  w.end_array();
  w.key("products").begin_array();
  for (const auto& p : b.products) {
    w.begin_object().key("name").string(p.name).key("url").string(p.url);
    if (p.image) w.key("image").string(*p.image);
    if (p.price) w.key("price").number(*p.price);
    if (p.compare_at_price) w.key("compareAtPrice").number(*p.compare_at_price);
    if (p.currency) w.key("currency").string(*p.currency);
    if (p.available) w.key("available").boolean(*p.available);
    w.end_object();
  }
  w.end_array();
  auto object_or_null = [&](std::string_view name, const std::optional<std::string>& json) {
    w.key(name);
    if (json)
      w.raw(*json);
    else
      w.null();
  };
  object_or_null("form", b.form_json);
  object_or_null("leadForm", b.lead_form_json);
  object_or_null("booking", b.booking_json);
  w.key("liveChat").string_or_null(r.live_chat);
  w.end_object();
}

}  // namespace parley
