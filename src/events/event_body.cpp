#include "events/event_body.h"

#include <charconv>

namespace parley {

namespace {
void begin_event(JsonWriter& w, std::string_view id, EventKind kind, int64_t created_at,
                 const EventAgent& agent) {
  w.begin_object();
  w.key("id").string(id);
  w.key("event").string(event_name(kind));
  w.key("created_at").timestamp(created_at);
  w.key("agent")
      .begin_object()
      .key("id")
      .string(agent.id)
      .key("name")
      .string(agent.name)
      .end_object();
  w.key("data").begin_object();
}

void end_event(JsonWriter& w) { w.end_object().end_object(); }


// The label a form field has now: the agent's form with this id (or its lead form), else the id.
std::string current_label(const AgentSettings& settings,
                          const std::optional<std::string>& form_id, const std::string& field_id) {
  // The label of the first field with this id (a field without an id has the id "").
  auto label_in = [&](const std::vector<FormFieldSetting>& fields) -> std::string {
    for (const auto& f : fields)
      if (f.id.value_or("") == field_id) return f.label.value_or("");
    return {};
  };
  if (form_id) {
    for (const auto& form : settings.forms)
      if (form.id.value_or("") == *form_id) {
        if (auto l = label_in(form.fields); !l.empty()) return l;
      }
  }
  if (settings.lead_form) {
    if (auto l = label_in(settings.lead_form->field_labels); !l.empty()) return l;
  }
  return field_id;
}

void write_custom_fields(JsonWriter& w, const EventAgent& agent,
                         const std::optional<std::string>& form_id, std::string_view stored) {
  rapidjson::Document fields;
  fields.Parse(stored.data(), stored.size());
  w.begin_array();
  if (!fields.HasParseError() && fields.IsArray()) {
    for (const auto& f : fields.GetArray()) {
      if (!f.IsObject()) continue;
      std::string id(string_member(f, "id"));
      w.begin_object().key("id").string(id).key("label").string(
          current_label(agent.settings, form_id, id));
      w.key("value");
      auto v = f.FindMember("value");
      if (v != f.MemberEnd())
        w.value(v->value);
      else
        w.null();
      w.end_object();
    }
  }
  w.end_array();
}
}  // namespace

void write_lead_event(JsonWriter& w, const EventAgent& agent, const LeadRecord& lead) {
  begin_event(w, lead.id, EventKind::kLeadCreated, lead.collected_at, agent);
  w.key("leadId").string(lead.id);
  w.key("agentId").string(agent.id);
  w.key("agentName").string(agent.name);
  w.key("email").string_or_null(lead.email);
  w.key("phone").string_or_null(lead.phone);
  w.key("name").string_or_null(lead.name);
  w.key("customFields");
  write_custom_fields(w, agent, lead.form_id, lead.custom_fields);
  w.key("source").string(lead.source);
  w.key("conversationId").string_or_null(lead.conversation_id);
  w.key("collectedAt").timestamp(lead.collected_at);
  end_event(w);
}

void write_form_event(JsonWriter& w, const EventAgent& agent, const FormSubmissionRecord& form) {
  begin_event(w, form.id, EventKind::kFormSubmitted, form.created_at, agent);
  w.key("submissionId").string(form.id);
  w.key("formId").string(form.form_id);
  w.key("formName").string_or_null(form.form_name);
  w.key("fields");
  write_custom_fields(w, agent, form.form_id, form.fields);
  w.key("conversationId").string_or_null(form.conversation_id);
  w.key("submittedAt").timestamp(form.created_at);
  end_event(w);
}

void write_booking_event(JsonWriter& w, const EventAgent& agent, const BookingRecord& b) {
  begin_event(w, b.id, EventKind::kBookingCreated, b.created_at, agent);
  w.key("bookingId").string(b.id);
  w.key("provider").string(b.provider);
  w.key("eventTitle").string_or_null(b.event_title);
  w.key("startAt").timestamp(b.start_at);
  w.key("eventLength").integer(b.length_minutes);
  w.key("timeZone").string(b.time_zone);
  w.key("name").string_or_null(b.name);
  w.key("email").string_or_null(b.email);
  w.key("providerStatus").string(b.provider_status);
  w.key("conversationId").string_or_null(b.conversation_id);
  w.key("createdAt").timestamp(b.created_at);
  end_event(w);
}

void write_return_event(JsonWriter& w, const EventAgent& agent, const ReturnRequestRecord& r) {
  begin_event(w, r.id, EventKind::kReturnRequested, r.created_at, agent);
  w.key("returnRequestId").string(r.id);
  w.key("orderId").string_or_null(r.order_id);
  w.key("email").string_or_null(r.email);
  w.key("name").string_or_null(r.name);
  w.key("reason").string_or_null(r.reason);
  w.key("status").string(r.status);
  w.key("conversationId").string_or_null(r.conversation_id);
  w.key("requestedAt").timestamp(r.created_at);
  w.key("handledAt").timestamp_or_null(r.handled_at);
  end_event(w);
}

void write_conversation_event(JsonWriter& w, const EventAgent& agent, EventKind kind,
                              const ConversationEventRow& conv, int64_t at) {
  if (kind == EventKind::kConversationCreated) {
    begin_event(w, conv.conversation_id, kind, conv.created_at, agent);
    w.key("conversationId").string(conv.conversation_id);
    w.key("channel").string(conv.channel);
    w.key("page").string_or_null(conv.page);
    w.key("country").string_or_null(conv.country);
    w.key("createdAt").timestamp(conv.created_at);
    end_event(w);
    return;
  }
  begin_event(w, conversation_event_id(conv.conversation_id, at), kind, at, agent);
  w.key("conversationId").string(conv.conversation_id);
  w.key("channel").string(conv.channel);
  w.key("requestedAt").timestamp(at);
  if (kind == EventKind::kHandoffRequested) {
    w.key("summary").null();
    w.key("test").boolean(false);
    if (conv.handoff_ticket) w.key("ticket").string(*conv.handoff_ticket);
  } else {
    w.key("status").string(conv.live_chat_status.value_or("requested"));
  }
  end_event(w);
}

std::string conversation_event_id(std::string_view conversation_id, int64_t at_ms) {
  return std::string(conversation_id) + ":" + std::to_string(at_ms);
}

bool split_conversation_event_id(std::string_view id, std::string& conversation_id,
                                 int64_t& at_ms) {
  size_t colon = id.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  std::string_view ms = id.substr(colon + 1);
  auto [p, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), at_ms);
  if (ec != std::errc() || p != ms.data() + ms.size()) return false;
  conversation_id = std::string(id.substr(0, colon));
  return true;
}

void write_sample_event(JsonWriter& w, const EventAgent& agent, EventKind kind, int64_t now_ms) {
  EventAgent sample_agent{agent.id, agent.name, AgentSettings{}};
  const std::string conv = "sample_conversation";
  switch (kind) {
    case EventKind::kLeadCreated: {
      LeadRecord l;
      l.id = "sample_lead";
      l.email = "jane.doe@example.com";
      l.phone = "+15555550123";
      l.name = "Jane Doe";
      l.custom_fields = R"([{"id":"company","value":"Example Inc."}])";
      l.source = "chat";
      l.conversation_id = conv;
      l.collected_at = now_ms;
      write_lead_event(w, sample_agent, l);
      return;
    }
    case EventKind::kFormSubmitted: {
      FormSubmissionRecord f{
          "sample_form_submission",
          agent.id,
          "",
          "sample_form",
          "Contact us",
          R"([{"id":"email","value":"jane.doe@example.com"},{"id":"message","value":"Hello"}])",
          conv,
          now_ms};
      write_form_event(w, sample_agent, f);
      return;
    }
    case EventKind::kBookingCreated: {
      BookingRecord b;
      b.id = "sample_booking";
      b.provider = "calendar";
      b.event_title = "Intro call";
      b.start_at = now_ms + 86'400'000;
      b.name = "Jane Doe";
      b.email = "jane.doe@example.com";
      b.provider_status = "accepted";
      b.conversation_id = conv;
      b.created_at = now_ms;
      write_booking_event(w, sample_agent, b);
      return;
    }
    case EventKind::kReturnRequested: {
      ReturnRequestRecord r;
      r.id = "sample_return_request";
      r.order_id = "1001";
      r.email = "jane.doe@example.com";
      r.name = "Jane Doe";
      r.reason = "Wrong size";
      r.conversation_id = conv;
      r.created_at = now_ms;
      write_return_event(w, sample_agent, r);
      return;
    }
    case EventKind::kHandoffRequested:
    case EventKind::kLiveChatRequested:
    case EventKind::kConversationCreated: {
      ConversationEventRow c;
      c.conversation_id = conv;
      c.agent_id = agent.id;
      c.channel = "widget";
      c.page = "https://www.example.com/pricing";
      c.country = "US";
      c.created_at = now_ms;
      c.live_chat_status = "requested";
      write_conversation_event(w, sample_agent, kind, c, now_ms);
      return;
    }
  }
}

}  // namespace parley
