#include "events/event_query.h"

namespace parley {

namespace {
ConversationEventKind conversation_kind(EventKind kind) {
  switch (kind) {
    case EventKind::kHandoffRequested:
      return ConversationEventKind::kHandoff;
    case EventKind::kLiveChatRequested:
      return ConversationEventKind::kLiveChat;
    default:
      return ConversationEventKind::kCreated;
  }
}

int64_t conversation_event_time(EventKind kind, const ConversationEventRow& row) {
  switch (kind) {
    case EventKind::kHandoffRequested:
      return row.handoff_requested_at.value_or(row.created_at);
    case EventKind::kLiveChatRequested:
      return row.live_chat_requested_at.value_or(row.created_at);
    default:
      return row.created_at;
  }
}

template <typename T, typename Write>
std::vector<std::string> serialise(const std::vector<T>& records, Write write) {
  std::vector<std::string> out;
  out.reserve(records.size());
  for (const auto& r : records) {
    JsonWriter w;
    write(w, r);
    out.push_back(w.str());
  }
  return out;
}

template <typename T, typename Write>
std::optional<std::string> one(const std::optional<T>& record, Write write) {
  if (!record) return std::nullopt;
  JsonWriter w;
  write(w, *record);
  return w.str();
}
}  // namespace

Result<std::vector<std::string>> latest_events(Connection& c, const EventAgent& agent,
                                               EventKind kind, int64_t limit) {
  switch (kind) {
    case EventKind::kLeadCreated: {
      PARLEY_ASSIGN_OR_RETURN(auto rows, EventSourceRepo::latest_leads(c, agent.id, limit));
      return serialise(rows,
                       [&](JsonWriter& w, const LeadRecord& r) { write_lead_event(w, agent, r); });
    }
    case EventKind::kFormSubmitted: {
      PARLEY_ASSIGN_OR_RETURN(auto rows, RecordRepo::latest_form_submissions(c, agent.id, limit));
      return serialise(rows, [&](JsonWriter& w, const FormSubmissionRecord& r) {
        write_form_event(w, agent, r);
      });
    }
    case EventKind::kBookingCreated: {
      PARLEY_ASSIGN_OR_RETURN(auto rows, RecordRepo::latest_bookings(c, agent.id, limit));
      return serialise(
          rows, [&](JsonWriter& w, const BookingRecord& r) { write_booking_event(w, agent, r); });
    }
    case EventKind::kReturnRequested: {
      PARLEY_ASSIGN_OR_RETURN(auto rows, RecordRepo::latest_return_requests(c, agent.id, limit));
      return serialise(rows, [&](JsonWriter& w, const ReturnRequestRecord& r) {
        write_return_event(w, agent, r);
      });
    }
    case EventKind::kHandoffRequested:
    case EventKind::kLiveChatRequested:
    case EventKind::kConversationCreated: {
      PARLEY_ASSIGN_OR_RETURN(auto rows, EventSourceRepo::latest_conversations(
                                             c, agent.id, conversation_kind(kind), limit));
      return serialise(rows, [&](JsonWriter& w, const ConversationEventRow& r) {
        write_conversation_event(w, agent, kind, r, conversation_event_time(kind, r));
      });
    }
  }
  return std::vector<std::string>{};
}

Result<std::optional<std::string>> event_body(Connection& c, const EventAgent& agent,
                                              EventKind kind, std::string_view event_id) {
  switch (kind) {
    case EventKind::kLeadCreated: {
      PARLEY_ASSIGN_OR_RETURN(auto r, EventSourceRepo::find_lead(c, agent.id, event_id));
      return one(r, [&](JsonWriter& w, const LeadRecord& x) { write_lead_event(w, agent, x); });
    }
    case EventKind::kFormSubmitted: {
      PARLEY_ASSIGN_OR_RETURN(auto r, RecordRepo::find_form_submission(c, agent.id, event_id));
      return one(
          r, [&](JsonWriter& w, const FormSubmissionRecord& x) { write_form_event(w, agent, x); });
    }
    case EventKind::kBookingCreated: {
      PARLEY_ASSIGN_OR_RETURN(auto r, RecordRepo::find_booking(c, agent.id, event_id));
      return one(r,
                 [&](JsonWriter& w, const BookingRecord& x) { write_booking_event(w, agent, x); });
    }
    case EventKind::kReturnRequested: {
      PARLEY_ASSIGN_OR_RETURN(auto r, RecordRepo::find_return_request(c, agent.id, event_id));
      return one(
          r, [&](JsonWriter& w, const ReturnRequestRecord& x) { write_return_event(w, agent, x); });
    }
    case EventKind::kConversationCreated: {
      PARLEY_ASSIGN_OR_RETURN(auto r, EventSourceRepo::find_conversation(c, agent.id, event_id));
      return one(r, [&](JsonWriter& w, const ConversationEventRow& x) {
        write_conversation_event(w, agent, kind, x, x.created_at);
      });
    }
    case EventKind::kHandoffRequested:
    case EventKind::kLiveChatRequested: {
      // An id without a time (a writer that queued only the conversation id) means the
      // conversation's latest hand-off or live-chat request.
      std::string conversation_id(event_id);
      int64_t at = 0;
      bool timed = split_conversation_event_id(event_id, conversation_id, at);
      PARLEY_ASSIGN_OR_RETURN(auto r,
                              EventSourceRepo::find_conversation(c, agent.id, conversation_id));
      if (r && !timed) {
        auto latest = kind == EventKind::kHandoffRequested ? r->handoff_requested_at
                                                           : r->live_chat_requested_at;
        if (!latest) return std::optional<std::string>{};
        at = *latest;
      }
      return one(r, [&](JsonWriter& w, const ConversationEventRow& x) {
        write_conversation_event(w, agent, kind, x, at);
      });
    }
  }
  return std::optional<std::string>{};
}

}  // namespace parley
