#include "views/chat_json.h"

namespace parley {

void write_form_json(JsonWriter& w, const FormBlock& form) {
  w.begin_object().key("formId").string(form.form_id).key("name").string(form.name);
  w.key("fields").raw(form.fields_json);
  w.key("submitLabel").string(form.submit_label).end_object();
}

void write_lead_form_json(JsonWriter& w, const LeadFormBlock& lead_form) {
  w.begin_object().key("message").string(lead_form.message);
  w.key("fields").begin_array();
  for (const auto& f : lead_form.fields) w.string(f);
  w.end_array().key("form");
  if (lead_form.form)
    write_form_json(w, *lead_form.form);
  else
    w.null();
  w.end_object();
}

void write_booking_json(JsonWriter& w, const BookingBlock& booking) {
  w.begin_object();
  w.key("provider").string(booking.provider);
  w.key("eventTitle").string(booking.event_title);
  w.key("eventLength").integer(booking.event_length);
  w.key("timeZone").string(booking.time_zone);
  w.key("days").begin_array();
  for (const auto& day : booking.days) {
    w.begin_object().key("date").string(day.date).key("slots").begin_array();
    for (int64_t t : day.slots) w.timestamp(t);
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

void write_chat_reply_json(JsonWriter& w, const ChatReply& r) {
  w.begin_object();
  w.key("reply").string(r.reply);
  w.key("conversationId").string(r.conversation_id);
  w.key("sessionId").string(r.session_id);
  write_reply_block_fields(w, r);
  w.end_object();
}

void write_reply_block_fields(JsonWriter& w, const ChatReply& r) {
  const ReplyBlocks& b = r.blocks;
  w.key("sources").begin_array();
  for (const auto& s : b.sources) {
    w.begin_object().key("title").string_or_null(s.title).key("url").string_or_null(s.url);
    if (s.web) w.key("web").boolean(true);
    w.end_object();
  }
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
  w.key("form");
  if (b.form)
    write_form_json(w, *b.form);
  else
    w.null();
  w.key("leadForm");
  if (b.lead_form)
    write_lead_form_json(w, *b.lead_form);
  else
    w.null();
  w.key("booking");
  if (b.booking)
    write_booking_json(w, *b.booking);
  else
    w.null();
  w.key("liveChat").string_or_null(r.live_chat);
}

}  // namespace parley
