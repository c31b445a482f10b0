// The widget channel (/widget/v1): a website visitor's side of an agent. Chat goes through the
// same flow as the API's (domain/chat.h, channel `widget`); the records a visitor makes go
// through domain/records.h and domain/widget_actions.h. Every route is behind the widget gate.
#include "widget/widget_routes.h"
#include "core/time_format.h"
#include "domain/chat.h"
#include "domain/contacts.h"
#include "domain/conversations.h"
#include "domain/gaps.h"
#include "domain/leads.h"
#include "domain/records.h"
#include "domain/widget_actions.h"
#include "domain/widget_identity.h"
#include "http/responses.h"
#include "views/change_feed.h"
#include "views/chat_answer.h"
#include "views/chat_json.h"
#include "views/conversation_json.h"
#include "views/lead_json.h"
#include "widget/widget_gate.h"
#include "widget/widget_limits.h"

namespace parley {

namespace {
// An optional member that must be a JSON array when present, as JSON text.
Result<std::string> array_of(const FieldReader& f, std::string_view field) {
  const rapidjson::Value* v = f.get(field);
  if (v == nullptr || v->IsNull()) return std::string("[]");
  if (!v->IsArray()) return ApiError::invalid("'" + std::string(field) + "' must be an array.");
  for (const auto& item : v->GetArray()) {
    if (!item.IsObject() || !item.HasMember("id") || !item["id"].IsString())
      return ApiError::invalid("Each item of '" + std::string(field) + "' needs a string 'id'.");
  }
  return to_json(*v);
}

// The limits every visitor record is held to: the size of its free-form JSON `field` (none when
// empty), then the conversation's records per hour.
Result<void> check_record(WidgetCall& call, std::string_view field, std::string_view json) {
  if (!call.app.widget_limits) return {};
  if (!field.empty()) PARLEY_TRY(call.app.widget_limits->check_record_size(field, json.size()));
  return call.app.widget_limits->check_record(call.conversation->id);
}

Response created(std::string_view id, int64_t at, std::string_view kind) {
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("id").string(id).key("type").string(kind).key("createdAt").timestamp(at);
  w.end_object().end_object();
  return json_response(201, w);
}

// The page's `userId` and `userHash`, checked against the agent's identity secret; nothing when
// the page sent no userId. 400 naming the field when either is malformed.
Result<std::optional<IdentityCheck>> identity_of(WidgetCall& call, const FieldReader& f) {
  PARLEY_ASSIGN_OR_RETURN(auto user_id, f.optional_string("userId"));
  PARLEY_ASSIGN_OR_RETURN(auto user_hash, f.optional_string("userHash"));
  if (!user_id) {
    if (user_hash) return ApiError::invalid("'userHash' needs the 'userId' it signs.");
    return std::optional<IdentityCheck>();
  }
  IdentityClaim claim{std::move(*user_id), std::move(user_hash)};
  PARLEY_TRY(validate_identity_claim(claim));
  return std::optional<IdentityCheck>(check_identity(call.app.secret_box, call.agent, claim));
}

Result<Response> send_message(WidgetCall& call) {
  FieldReader f(call.body);
  ChatRequest r;
  r.agent_id = call.agent.id;
  PARLEY_ASSIGN_OR_RETURN(r.message, f.required_string("message"));
  PARLEY_ASSIGN_OR_RETURN(r.conversation_id, f.optional_string("conversationId"));
  PARLEY_ASSIGN_OR_RETURN(r.time_zone, f.optional_string("timeZone"));
  PARLEY_ASSIGN_OR_RETURN(auto stream, f.optional_bool("stream"));
  WidgetVisitor visitor;
  PARLEY_ASSIGN_OR_RETURN(visitor.visitor_id, f.required_string("visitorId"));
  if (visitor.visitor_id.starts_with(kDashboardVisitorPrefix))
    return ApiError::invalid("'visitorId' may not begin with dashboard_ (the dashboard's own).");
  PARLEY_ASSIGN_OR_RETURN(visitor.page, f.optional_string("page"));
  visitor.country = call.country;
  PARLEY_ASSIGN_OR_RETURN(visitor.identity, identity_of(call, f));
  r.widget = std::move(visitor);
  if (call.app.widget_limits) {
    PARLEY_TRY(call.app.widget_limits->check_message(call.address, call.agent.id,
                                                     call.rules.messages_per_visitor));
  }
  r.waited_ms = call.req.waited_ms();
  PARLEY_ASSIGN_OR_RETURN(auto turn, ChatTurn::prepare(call.app.chat, call.agent.account_id, r));
  return answer_chat(std::make_shared<ChatTurn>(std::move(turn)), call.app.reply_pool, call.req,
                     chat_form(call.req, stream.value_or(false)));
}

// What the widget shows before the first message: the agent's name and whether the team can be
// asked to join. Behind the same gate as messages, so a refused page learns only its refusal.
Result<Response> get_agent(WidgetCall& call) {
  return data_response(200, [&](JsonWriter& w) {
    w.begin_object();
    w.key("id").string(call.agent.id);
    w.key("name").string(call.agent.name);
    w.key("liveChat").boolean(call.settings->handoff.live_chat);
    w.end_object();
  });
}

// The transcript, so the widget can show team replies written during a live chat.
Result<Response> get_transcript(WidgetCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto conv,
                          get_conversation(c, call.agent.account_id, call.conversation->id));
  return data_response(200, [&](JsonWriter& w) { write_conversation_json(w, conv); });
}

// The transcript as a live stream: at once, then each time it changes (a team member took the
// conversation over, replied, or ended the live chat). After the first event, an event's
// `messages` are those added since the stream's previous event; the cursor is the last message's
// seq and the conversation without its messages as last sent.
Result<Response> watch_transcript(WidgetCall& call) {
  if (call.app.feed == nullptr)
    return ApiError{ErrorCode::kUnavailable, "Live streams are off on this server."};
  Database& db = call.app.db;
  // A visitor's page holds one; a few more allow for tabs. Per address, for many made-up
  // conversations from one client.
  std::vector<ChangeFeed::Share> shares{{"conversation:" + call.conversation->id, 3}};
  if (!call.address.empty()) shares.push_back({"address:" + call.address, 20});
  shares.push_back(call.app.feed->visitors_share());  // leaves the team's inbox its reserve
  return call.app.feed->stream(
      "conversation",
      [&db, account = call.agent.account_id,
       id = call.conversation->id](std::string& cursor) -> Result<std::optional<std::string>> {
        size_t cut = cursor.find('\n');
        int64_t after = cut == std::string::npos ? 0 : std::stoll(cursor.substr(0, cut));
        PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
        PARLEY_ASSIGN_OR_RETURN(auto conv, get_conversation_since(c, account, id, after));
        JsonWriter head;
        write_conversation_json(head, ConversationWithMessages{conv.conversation, {}});
        int64_t last = conv.messages.empty() ? after : conv.messages.back().seq;
        std::string moved = std::to_string(last) + "\n" + head.str();
        if (moved == cursor) return std::optional<std::string>();
        cursor = std::move(moved);
        JsonWriter w;
        w.begin_object().key("data");
        write_conversation_json(w, conv);
        w.end_object();
        return std::optional<std::string>(w.str());
      },
      std::move(shares));
}

// Parley.identify() after the conversation started: the identity is checked and recorded as it
// is with a message; the answer says what the conversation now holds.
Result<Response> identify(WidgetCall& call) {
  FieldReader f(call.body);
  PARLEY_ASSIGN_OR_RETURN(auto check, identity_of(call, f));
  if (!check) return ApiError::invalid("'userId' is required.");
  PARLEY_ASSIGN_OR_RETURN(
      auto conv, identify_visitor(call.services, call.agent, call.conversation->id, *check));
  return data_response(200, [&](JsonWriter& w) {
    w.begin_object();
    w.key("conversationId").string(conv.id);
    w.key("identity");
    write_identity_json(w, conv);
    w.end_object();
  });
}

Result<Response> submit_form(WidgetCall& call) {
  FieldReader f(call.body);
  FormSubmissionRecord in;
  in.agent_id = call.agent.id;
  in.conversation_id = call.conversation->id;
  PARLEY_ASSIGN_OR_RETURN(in.form_id, f.required_string("formId", 100));
  PARLEY_TRY(check_form_id(*call.settings, in.form_id));
  PARLEY_ASSIGN_OR_RETURN(std::string fields, array_of(f, "fields"));
  PARLEY_TRY(check_record(call, "fields", fields));
  // Labels are those the form has now, as for leads.
  FormLabels labels(*call.settings);
  rapidjson::Document given;
  given.Parse(fields.data(), fields.size());
  JsonWriter w;
  w.begin_array();
  for (const auto& item : given.GetArray()) {
    std::string id = item["id"].GetString();
    w.begin_object().key("id").string(id);
    w.key("label").string_or_null(labels.label(in.form_id, id));
    w.key("value");
    if (item.HasMember("value"))
      w.value(item["value"]);
    else
      w.null();
    w.end_object();
  }
  w.end_array();
  in.fields = w.str();
  PARLEY_ASSIGN_OR_RETURN(auto saved, record_form_submission(call.services, std::move(in)));
  return created(saved.id, saved.created_at, "form_submission");
}

// The optional `email` of a booking or a return request: an address, as a contact's is.
Result<std::optional<std::string>> optional_email(FieldReader& f) {
  PARLEY_ASSIGN_OR_RETURN(auto email, f.optional_string("email", 254));
  if (email && !is_valid_email(*email))
    return ApiError::invalid("'email' must be a valid email address.");
  return email;
}

// The agent's booking setting names the provider and the event: {provider, eventTitle,
// eventLength}; the visitor picks a slot.
Result<Response> pick_slot(WidgetCall& call) {
  FieldReader f(call.body);
  BookingRecord in;
  in.agent_id = call.agent.id;
  in.conversation_id = call.conversation->id;
  PARLEY_ASSIGN_OR_RETURN(std::string start, f.required_string("startAt"));
  auto start_ms = parse_timestamp(start);
  if (!start_ms) return ApiError::invalid("'startAt' must be an ISO 8601 time.");
  in.start_at = *start_ms;
  PARLEY_ASSIGN_OR_RETURN(in.name, f.optional_string("name", 100));
  PARLEY_ASSIGN_OR_RETURN(in.email, optional_email(f));
  PARLEY_ASSIGN_OR_RETURN(auto zone, f.optional_string("timeZone"));
  if (zone && !is_known_time_zone(*zone))
    return ApiError::invalid("'timeZone' must be an IANA time zone such as 'Europe/Paris'.");
  in.time_zone = zone.value_or("UTC");
  in.provider = "calendar";
  if (const auto& b = call.settings->booking) {
    if (b->provider) in.provider = *b->provider;
    if (b->event_title) in.event_title = *b->event_title;
    if (b->event_length && *b->event_length > 0) in.length_minutes = *b->event_length;
  }
  PARLEY_TRY(check_record(call, "", ""));
  PARLEY_ASSIGN_OR_RETURN(auto saved, record_booking(call.services, std::move(in)));
  return created(saved.id, saved.created_at, "booking");
}

Result<Response> request_return(WidgetCall& call) {
  FieldReader f(call.body);
  ReturnRequestRecord in;
  in.agent_id = call.agent.id;
  in.conversation_id = call.conversation->id;
  PARLEY_ASSIGN_OR_RETURN(in.order_id, f.required_string("orderId", 100));
  PARLEY_ASSIGN_OR_RETURN(in.email, optional_email(f));
  PARLEY_ASSIGN_OR_RETURN(in.name, f.optional_string("name", 100));
  PARLEY_ASSIGN_OR_RETURN(in.reason, f.optional_string("reason", 1000));
  PARLEY_TRY(check_record(call, "", ""));
  PARLEY_ASSIGN_OR_RETURN(auto saved, record_return_request(call.services, std::move(in)));
  return created(saved.id, saved.created_at, "return_request");
}

Result<Response> give_contact(WidgetCall& call) {
  FieldReader f(call.body);
  VisitorContact in;
  PARLEY_ASSIGN_OR_RETURN(in.email, f.optional_string("email"));
  PARLEY_ASSIGN_OR_RETURN(in.phone, f.optional_string("phone"));
  PARLEY_ASSIGN_OR_RETURN(in.name, f.optional_string("name"));
  PARLEY_ASSIGN_OR_RETURN(in.form_id, f.optional_string("formId", 100));
  PARLEY_ASSIGN_OR_RETURN(in.custom_fields, array_of(f, "customFields"));
  if (in.form_id) PARLEY_TRY(check_form_id(*call.settings, *in.form_id));
  PARLEY_TRY(check_record(call, "customFields", in.custom_fields));
  if (call.app.widget_limits)
    PARLEY_TRY(call.app.widget_limits->check_contact(call.address, call.agent.id));
  PARLEY_ASSIGN_OR_RETURN(auto saved,
                          record_visitor_contact(call.services, *call.conversation, in));
  JsonWriter w;
  w.begin_object().key("data");
  write_lead_json(w, saved.lead, FormLabels(*call.settings));
  w.key("result").string(saved.created ? "created" : "updated");
  w.end_object();
  return json_response(saved.created ? 201 : 200, w);
}

Result<Response> rate(WidgetCall& call) {
  FieldReader f(call.body);
  const rapidjson::Value* score = f.get("score");
  if (score == nullptr || score->IsNull()) return ApiError::invalid("'score' is required.");
  if (!score->IsInt64()) return ApiError::invalid("'score' must be an integer from 1 to 5.");
  PARLEY_ASSIGN_OR_RETURN(auto comment, f.optional_string("comment"));
  PARLEY_ASSIGN_OR_RETURN(auto conv, rate_conversation(call.services, call.conversation->id,
                                                       score->GetInt64(), std::move(comment)));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("conversationId").string(conv.id);
  w.key("csat").begin_object();
  w.key("score").integer(*conv.csat_score);
  w.key("comment").string_or_null(conv.csat_comment);
  w.key("ratedAt").timestamp_or_null(conv.csat_rated_at);
  w.end_object().end_object().end_object();
  return json_response(200, w);
}
// The visitor's thumbs on one agent reply: {"rating": "up" | "down" | null}; null takes it back.
Result<Response> rate_reply_route(WidgetCall& call) {
  FieldReader f(call.body);
  const rapidjson::Value* given = f.get("rating");
  if (given == nullptr) return ApiError::invalid("'rating' is required: \"up\", \"down\" or null.");
  std::optional<std::string> rating;
  if (!given->IsNull()) {
    if (!given->IsString()) return ApiError::invalid("'rating' must be \"up\", \"down\" or null.");
    rating = std::string(given->GetString(), given->GetStringLength());
    if (*rating != "up" && *rating != "down")
      return ApiError::invalid("'rating' must be \"up\", \"down\" or null.");
  }
  PARLEY_ASSIGN_OR_RETURN(
      auto message, rate_reply(call.services, *call.conversation, call.req.params.at(1), rating));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("messageId").string(message.id);
  w.key("conversationId").string(message.conversation_id);
  w.key("rating").string_or_null(message.rating);
  w.key("ratedAt").timestamp_or_null(message.rated_at);
  w.end_object().end_object();
  return json_response(200, w);
}
}  // namespace

void register_widget_routes(Router& router, WidgetContext& app) {
  using enum WidgetTarget;
  add_widget_route(router, app, "GET", "/widget/v1/agents/{agentId}", kAgent, Execution::kPool,
                   get_agent);
  add_widget_route(router, app, "POST", "/widget/v1/agents/{agentId}/messages", kAgent,
                   Execution::kPool, send_message);
  add_widget_route(router, app, "GET", "/widget/v1/conversations/{conversationId}", kConversation,
                   Execution::kPool, get_transcript);
  add_widget_route(router, app, "GET", "/widget/v1/conversations/{conversationId}/events",
                   kConversation, Execution::kPool, watch_transcript);
  add_widget_route(router, app, "POST", "/widget/v1/conversations/{conversationId}/identify",
                   kConversation, Execution::kPool, identify);
  add_widget_route(router, app, "POST", "/widget/v1/conversations/{conversationId}/form",
                   kConversation, Execution::kPool, submit_form);
  add_widget_route(router, app, "POST", "/widget/v1/conversations/{conversationId}/booking",
                   kConversation, Execution::kPool, pick_slot);
  add_widget_route(router, app, "POST", "/widget/v1/conversations/{conversationId}/return",
                   kConversation, Execution::kPool, request_return);
  add_widget_route(router, app, "POST", "/widget/v1/conversations/{conversationId}/contact",
                   kConversation, Execution::kPool, give_contact);
  add_widget_route(router, app, "POST", "/widget/v1/conversations/{conversationId}/csat",
                   kConversation, Execution::kPool, rate);
  add_widget_route(router, app, "POST",
                   "/widget/v1/conversations/{conversationId}/messages/{messageId}/rating",
                   kConversation, Execution::kPool, rate_reply_route);
}

}  // namespace parley
