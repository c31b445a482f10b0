// parley admin record conversation | lead | form | booking | return | return-handled | handoff |
// live-chat-request: stores the records behind events (each with its outbox row), as the widget
// and the team would through the console.
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "core/time_format.h"
#include "domain/lead_admin.h"
#include "domain/records.h"

namespace parley {

namespace {
struct RecordArgs {
  std::string agent, conversation, channel = "widget", page, country;
  std::string email, phone, name, custom_fields = "[]", form_id, source = "form";
  std::string form, form_name, fields = "[]";
  std::string provider = "calendar", title, start, time_zone = "UTC", status = "accepted";
  int64_t length = 30;
  std::string order, reason, id, ticket;
  int64_t repeat = 1;
};

std::optional<std::string> opt(const std::string& v) {
  return v.empty() ? std::nullopt : std::optional(v);
}

std::string id_json(std::string_view id, std::string_view event_id = {}) {
  JsonWriter w;
  w.begin_object().key("id").string(id);
  if (!event_id.empty()) w.key("eventId").string(event_id);
  w.end_object();
  return w.str();
}

using Body = std::function<Result<std::string>(Services&)>;

void on_run(CLI::App* cmd, GlobalOptions& global, CommandRun& run, Body body) {
  cmd->callback(
      [&global, &run, body] { run = [&global, body] { return run_admin(global, body); }; });
}
}  // namespace

void add_admin_record_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* record =
      admin.add_subcommand("record", "Records behind events (each also queued for webhooks)");
  record->require_subcommand(1);
  auto a = std::make_shared<RecordArgs>();

  auto* conv =
      record->add_subcommand("conversation", "Start a conversation (conversation.created)");
  conv->add_option("--agent", a->agent, "Agent id")->required();
  conv->add_option("--channel", a->channel, "widget or api");
  conv->add_option("--page", a->page, "Page the widget chat started on");
  conv->add_option("--country", a->country, "Visitor's country code");
  on_run(conv, global, run, [a](Services& s) -> Result<std::string> {
    PARLEY_ASSIGN_OR_RETURN(
        auto c, record_conversation(s, {a->agent, a->channel, opt(a->page), opt(a->country)}));
    return id_json(c.id);
  });

  auto* lead = record->add_subcommand("lead", "Save a lead (lead.created when new)");
  lead->add_option("--agent", a->agent, "Agent id")->required();
  lead->add_option("--email", a->email, "Email");
  lead->add_option("--phone", a->phone, "Phone");
  lead->add_option("--name", a->name, "Name");
  lead->add_option("--custom-fields", a->custom_fields, "JSON array of {id, value}");
  lead->add_option("--form-id", a->form_id, "Form the lead came from");
  lead->add_option("--source", a->source, "form or chat");
  lead->add_option("--conversation", a->conversation, "Conversation id");
  on_run(lead, global, run, [a](Services& s) -> Result<std::string> {
    NewLead in;
    in.agent_id = a->agent;
    in.source = a->source;
    in.email = opt(a->email);
    in.phone = opt(a->phone);
    in.name = opt(a->name);
    in.form_id = opt(a->form_id);
    in.custom_fields = a->custom_fields;
    in.conversation_id = opt(a->conversation);
    PARLEY_ASSIGN_OR_RETURN(auto saved, admin_save_lead(s, in));
    JsonWriter w;
    w.begin_object()
        .key("id")
        .string(saved.lead.id)
        .key("created")
        .boolean(saved.created)
        .end_object();
    return w.str();
  });

  auto* form = record->add_subcommand("form", "Record a form submission (form.submitted)");
  form->add_option("--agent", a->agent, "Agent id")->required();
  form->add_option("--form", a->form, "Form id")->required();
  form->add_option("--form-name", a->form_name, "Form name");
  form->add_option("--fields", a->fields, "JSON array of {id, label, value}");
  form->add_option("--conversation", a->conversation, "Conversation id");
  form->add_option("--repeat", a->repeat, "Record this many identical submissions (load tests)")
      ->check(CLI::PositiveNumber);
  on_run(form, global, run, [a](Services& s) -> Result<std::string> {
    std::string last;
    for (int64_t i = 0; i < a->repeat; ++i) {
      FormSubmissionRecord in;
      in.agent_id = a->agent;
      in.form_id = a->form;
      in.form_name = opt(a->form_name);
      in.fields = a->fields;
      in.conversation_id = opt(a->conversation);
      PARLEY_ASSIGN_OR_RETURN(auto r, record_form_submission(s, in));
      last = r.id;
    }
    return id_json(last);
  });

  auto* booking = record->add_subcommand("booking", "Record a booking (booking.created)");
  booking->add_option("--agent", a->agent, "Agent id")->required();
  booking->add_option("--provider", a->provider, "Calendar provider");
  booking->add_option("--title", a->title, "Event title");
  booking->add_option("--start", a->start, "Start time, ISO 8601 (default: in a day)");
  booking->add_option("--length", a->length, "Length in minutes");
  booking->add_option("--time-zone", a->time_zone, "IANA time zone");
  booking->add_option("--name", a->name, "Guest's name");
  booking->add_option("--email", a->email, "Guest's email");
  booking->add_option("--status", a->status, "Provider status: pending or accepted");
  booking->add_option("--conversation", a->conversation, "Conversation id");
  on_run(booking, global, run, [a](Services& s) -> Result<std::string> {
    BookingRecord in;
    in.agent_id = a->agent;
    in.provider = a->provider;
    in.event_title = opt(a->title);
    if (!a->start.empty()) {
      auto t = parse_timestamp(a->start);
      if (!t) return ApiError::invalid("'--start' must be an ISO 8601 time.");
      in.start_at = *t;
    }
    in.length_minutes = a->length;
    in.time_zone = a->time_zone;
    in.name = opt(a->name);
    in.email = opt(a->email);
    in.provider_status = a->status;
    in.conversation_id = opt(a->conversation);
    PARLEY_ASSIGN_OR_RETURN(auto r, record_booking(s, in));
    return id_json(r.id);
  });

  auto* ret = record->add_subcommand("return", "Record a return request (return.requested)");
  ret->add_option("--agent", a->agent, "Agent id")->required();
  ret->add_option("--order", a->order, "Order id");
  ret->add_option("--email", a->email, "Customer's email");
  ret->add_option("--name", a->name, "Customer's name");
  ret->add_option("--reason", a->reason, "Reason for the return");
  ret->add_option("--conversation", a->conversation, "Conversation id");
  on_run(ret, global, run, [a](Services& s) -> Result<std::string> {
    ReturnRequestRecord in;
    in.agent_id = a->agent;
    in.order_id = opt(a->order);
    in.email = opt(a->email);
    in.name = opt(a->name);
    in.reason = opt(a->reason);
    in.conversation_id = opt(a->conversation);
    PARLEY_ASSIGN_OR_RETURN(auto r, record_return_request(s, in));
    return id_json(r.id);
  });

  auto* handled = record->add_subcommand("return-handled", "Mark a return request handled");
  handled->add_option("id", a->id, "Return request id")->required();
  on_run(handled, global, run, [a](Services& s) -> Result<std::string> {
    PARLEY_TRY(mark_return_request_handled(s, a->id));
    JsonWriter w;
    w.begin_object().key("id").string(a->id).key("status").string("handled").end_object();
    return w.str();
  });

  auto* handoff = record->add_subcommand(
      "handoff", "The agent emailed a conversation to the team (handoff.requested)");
  handoff->add_option("--conversation", a->conversation, "Conversation id")->required();
  handoff->add_option("--ticket", a->ticket, "Helpdesk ticket the hand-off opened");
  on_run(handoff, global, run, [a](Services& s) -> Result<std::string> {
    PARLEY_ASSIGN_OR_RETURN(auto event_id, record_handoff(s, a->conversation, opt(a->ticket)));
    return id_json(a->conversation, event_id);
  });

  auto* live = record->add_subcommand("live-chat-request",
                                      "The agent asked the team to join (live_chat.requested)");
  live->add_option("--conversation", a->conversation, "Conversation id")->required();
  on_run(live, global, run, [a](Services& s) -> Result<std::string> {
    PARLEY_ASSIGN_OR_RETURN(auto event_id, record_live_chat_request(s, a->conversation));
    return id_json(a->conversation, event_id);
  });
}

}  // namespace parley
