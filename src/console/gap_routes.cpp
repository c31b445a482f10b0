// Knowledge gaps in the console (domain/gaps.h): an agent's groups of questions it could not
// answer well (open, resolved or all; paged), one group with its conversations, "Answer this"
// (a Q&A pair added or updated and the group resolved) and "Improve answer" from any agent reply
// of a transcript. Viewers read; editors answer, as they add sources.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/gaps.h"
#include "http/responses.h"
#include "views/gap_json.h"
#include "views/pagination.h"

namespace parley {

namespace {
constexpr ListKind kGapList{"gaps", "gap_"};

Result<GapStatus> parse_status(const Request& req) {
  bool found = false;
  std::string status = req.query_param("status", &found);
  if (!found || status == "open") return GapStatus::kOpen;
  if (status == "resolved") return GapStatus::kResolved;
  if (status == "all") return GapStatus::kAny;
  return ApiError::invalid("'status' must be open, resolved or all.");
}

Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto status, parse_status(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(call.req, kGapList, call.param(0)));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto page,
                          list_gap_groups(c, call.account_id(), call.param(0), status, q));
  return Response::json(
      200, page_json<GapGroupView>(page, kGapList, call.param(0), write_gap_group_json,
                                   [](const GapGroupView& g) {
                                     return KeysetPosition{g.group.created_at, g.group.id};
                                   }));
}

Result<Response> get(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto detail,
                          get_gap_group(c, call.account_id(), call.param(0), call.param(1)));
  return data_response(200, [&](JsonWriter& w) { write_gap_detail_json(w, detail); });
}

struct AnswerBody {
  std::string answer;
  std::optional<std::string> question;
};

Result<AnswerBody> answer_body(const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(req));
  FieldReader f(doc);
  PARLEY_TRY(f.only({"answer", "question"}));
  AnswerBody out;
  PARLEY_ASSIGN_OR_RETURN(out.answer, f.required_string("answer"));
  PARLEY_ASSIGN_OR_RETURN(out.question, f.optional_string("question"));
  return out;
}

Response answered(const GapAnswered& a) {
  JsonWriter w;
  write_gap_answered_json(w, a);
  return json_response(a.added.outcome == AddOutcome::kCreated ? 201 : 200, w);
}

Result<Response> answer(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, answer_body(call.req));
  PARLEY_ASSIGN_OR_RETURN(
      auto a, answer_gap(call.services, call.app.source_listener, call.account_id(), call.param(0),
                         call.param(1), body.question, body.answer));
  return answered(a);
}

Result<Response> improve(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, answer_body(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto a,
                          improve_answer(call.services, call.app.source_listener, call.account_id(),
                                         call.param(0), call.param(1), body.question, body.answer));
  return answered(a);
}
}  // namespace

void register_console_gap_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/gaps", Role::kViewer,
                    Execution::kPool, list);
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/gaps/{gapId}", Role::kViewer,
                    Execution::kPool, get);
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/gaps/{gapId}/answer",
                    Role::kEditor, Execution::kPool, answer,
                    {.rule = {"gap.answer", "source", audit_source_snapshot},
                     .target = ConsoleAudit::Target::kCreated,
                     .parent_param = 0});
  add_console_route(router, app, "POST",
                    "/console/v1/conversations/{conversationId}/messages/{messageId}/improve",
                    Role::kEditor, Execution::kPool, improve,
                    {.rule = {"message.improve", "message", nullptr}, .param = 1});
}

}  // namespace parley
