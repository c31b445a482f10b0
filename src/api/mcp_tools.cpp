// The MCP tools that answer at once, and the tool table (api/mcp.h). Each tool checks its
// arguments, then makes the REST endpoint's own call: the lists go through the same page answers
// as GET .../conversations, .../leads and .../contacts (views/list_answers.h), given the tool's
// arguments as that endpoint's query parameters, so paging, cursors and their errors are the
// endpoint's.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "api/mcp.h"
#include "core/percent_encoding.h"
#include "domain/agents.h"
#include "domain/contacts.h"
#include "domain/conversations.h"
#include "http/responses.h"
#include "views/agent_json.h"
#include "views/contact_json.h"
#include "views/conversation_json.h"
#include "views/list_answers.h"

namespace parley {

namespace {
constexpr int64_t kDefaultSearchResults = 5;
constexpr int64_t kMaxSearchResults = 20;
constexpr size_t kMaxQueryChars = 1'000;

// Percent-encodes a query parameter's value (RFC 3986 unreserved characters stay).
void append_query_param(std::string& query, std::string_view name, std::string_view value) {
  if (!query.empty()) query.push_back('&');
  query.append(name).push_back('=');
  append_percent_encoded(query, value);
}

// The REST list's query string from the tool's paging arguments (limit, cursor, since).
Result<std::string> page_query(const rapidjson::Value& args) {
  FieldReader f(args);
  std::string query;
  PARLEY_ASSIGN_OR_RETURN(auto limit, integer_argument(args, "limit", 1, 100));
  if (limit) append_query_param(query, "limit", std::to_string(*limit));
  PARLEY_ASSIGN_OR_RETURN(auto cursor, f.optional_string("cursor"));
  if (cursor) append_query_param(query, "cursor", *cursor);
  PARLEY_ASSIGN_OR_RETURN(auto since, f.optional_string("since"));
  if (since) append_query_param(query, "since", *since);
  return query;
}

// Runs a REST list answer as if called with `query`; its JSON body is the tool's result.
template <class PageFn>
ToolResult list_page(ApiCall& call, const std::string& agent_id, const std::string& query,
                     PageFn page) {
  Request req;
  req.query = query;
  PARLEY_ASSIGN_OR_RETURN(Response r, page(call.app.db, call.account_id(), agent_id, req));
  return std::move(r.body);
}

ToolResult list_agents_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(only_arguments(args, {}));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agents, AgentRepo::list(c, call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& a : agents) write_agent_json(w, a);
  w.end_array().end_object();
  return w.str();
}

ToolResult search_knowledge_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(only_arguments(args, {"agentId", "query", "limit"}));
  FieldReader f(args);
  PARLEY_ASSIGN_OR_RETURN(auto agent_id, f.required_string("agentId"));
  PARLEY_ASSIGN_OR_RETURN(auto query, f.required_string("query", kMaxQueryChars));
  if (is_blank(query)) return ApiError::invalid("'query' must not be blank.");
  PARLEY_ASSIGN_OR_RETURN(auto limit, integer_argument(args, "limit", 1, kMaxSearchResults));
  PARLEY_ASSIGN_OR_RETURN(auto agent, account_agent(call.app, call.account_id(), agent_id));
  auto chunks =
      call.app.chat.retriever.search(agent->record.id, agent->settings->knowledge, query,
                                     static_cast<size_t>(limit.value_or(kDefaultSearchResults)));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& chunk : chunks) {
    w.begin_object();
    w.key("sourceId").string(chunk.source_id);
    w.key("sourceType").string(chunk.source_type);
    w.key("title").string_or_null(chunk.title);
    w.key("url").string_or_null(chunk.url);
    w.key("text").string(chunk.text);
    w.key("score").number(chunk.score);
    w.end_object();
  }
  w.end_array().end_object();
  return w.str();
}

ToolResult list_conversations_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(only_arguments(args, {"agentId", "limit", "cursor", "since"}));
  PARLEY_ASSIGN_OR_RETURN(auto agent_id, FieldReader(args).required_string("agentId"));
  PARLEY_ASSIGN_OR_RETURN(auto query, page_query(args));
  return list_page(call, agent_id, query,
                   [](Database& db, std::string_view account, std::string_view agent,
                      const Request& req) { return conversations_page(db, account, agent, req); });
}

ToolResult get_conversation_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(only_arguments(args, {"conversationId"}));
  PARLEY_ASSIGN_OR_RETURN(auto id, FieldReader(args).required_string("conversationId"));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto conversation, get_conversation(c, call.account_id(), id));
  JsonWriter w;
  w.begin_object().key("data");
  write_conversation_json(w, conversation);
  w.end_object();
  return w.str();
}

ToolResult list_leads_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(only_arguments(args, {"agentId", "limit", "cursor", "since"}));
  PARLEY_ASSIGN_OR_RETURN(auto agent_id, FieldReader(args).required_string("agentId"));
  PARLEY_ASSIGN_OR_RETURN(auto query, page_query(args));
  return list_page(call, agent_id, query, leads_page);
}

// The agent's contact with that email and/or external id (both must match when both are given):
// GET .../contacts?email=…&external_id=… with its validation, answering the one contact or null.
ToolResult find_contact_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(only_arguments(args, {"agentId", "email", "external_id"}));
  FieldReader f(args);
  PARLEY_ASSIGN_OR_RETURN(auto agent_id, f.required_string("agentId"));
  PARLEY_ASSIGN_OR_RETURN(auto email, f.optional_string("email"));
  PARLEY_ASSIGN_OR_RETURN(auto external_id, f.optional_string("external_id"));
  if (!email && !external_id) return ApiError::invalid("'email' or 'external_id' is required.");
  std::string query = "limit=1";
  if (email) append_query_param(query, "email", *email);
  if (external_id) append_query_param(query, "external_id", *external_id);
  PARLEY_ASSIGN_OR_RETURN(auto page, list_page(call, agent_id, query, contacts_page));
  PARLEY_ASSIGN_OR_RETURN(auto doc, parse_json_object(page));
  const auto& data = doc["data"];
  JsonWriter w;
  w.begin_object().key("data");
  if (data.IsArray() && !data.Empty()) {
    w.value(data[0]);
  } else {
    w.null();
  }
  w.end_object();
  return w.str();
}

// POST /api/v1/agents/{agentId}/contacts: the same fields (external_id, email, phone, name,
// attributes) and the same create-or-update rules.
ToolResult upsert_contact_tool(ApiCall& call, const rapidjson::Value& args) {
  PARLEY_TRY(
      only_arguments(args, {"agentId", "external_id", "email", "phone", "name", "attributes"}));
  PARLEY_ASSIGN_OR_RETURN(auto agent_id, FieldReader(args).required_string("agentId"));
  PARLEY_ASSIGN_OR_RETURN(auto input, parse_contact_input(args));
  if (!input.external_id.value && !input.email.value) {
    return ApiError::invalid("'external_id' or 'email' is required.");
  }
  PARLEY_ASSIGN_OR_RETURN(auto agent, account_agent(call.app, call.account_id(), agent_id));
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_ASSIGN_OR_RETURN(auto saved, upsert_contact(s, agent->record, input, "api"));
  JsonWriter w;
  w.begin_object().key("data");
  write_contact_json(w, saved.contact);
  w.key("result").string(saved.created ? "created" : "updated");
  w.end_object();
  return w.str();
}

McpTool tool(std::string_view name, Scope scope, std::string_view title,
             std::string_view description, ToolResult (*run)(ApiCall&, const rapidjson::Value&)) {
  ToolSchemas schemas = mcp_schemas(name);
  return McpTool{name, scope, title, description, schemas.input, schemas.output, run, nullptr};
}

std::vector<McpTool> make_tools() {
  std::vector<McpTool> tools;
  tools.push_back(tool("list_agents", Scope::kAgentsRead, "List agents",
                       "The account's agents, newest first, with their training status and counts.",
                       list_agents_tool));
  McpTool ask = tool("ask_agent", Scope::kChat, "Ask an agent",
                     "Asks an agent a question, as its chat endpoint does: the reply text, the "
                     "sources it used and the conversationId to pass back to continue the same "
                     "conversation.",
                     nullptr);
  ask.run_later = ask_agent_tool;
  tools.push_back(ask);
  tools.push_back(tool("search_knowledge", Scope::kSourcesRead, "Search an agent's knowledge",
                       "The passages of an agent's trained sources that best match a query, with "
                       "their source's title and address; no language model is involved.",
                       search_knowledge_tool));
  tools.push_back(tool("list_conversations", Scope::kConversationsRead, "List conversations",
                       "An agent's conversations, newest first, one page at a time (pass "
                       "nextCursor back as cursor for the next page).",
                       list_conversations_tool));
  tools.push_back(tool("get_conversation", Scope::kConversationsRead, "Get a conversation",
                       "A conversation with its messages, oldest first.", get_conversation_tool));
  tools.push_back(tool("list_leads", Scope::kLeadsRead, "List leads",
                       "The leads an agent collected, newest first, one page at a time.",
                       list_leads_tool));
  tools.push_back(tool("find_contact", Scope::kLeadsRead, "Find a contact",
                       "An agent's contact by email or external_id (both must match when both "
                       "are given); data is null when there is none.",
                       find_contact_tool));
  tools.push_back(tool("upsert_contact", Scope::kContactsWrite, "Create or update a contact",
                       "Creates or updates an agent's contact: found by external_id, else by "
                       "email, else created. Attributes are merged; null clears a field.",
                       upsert_contact_tool));
  return tools;
}
}  // namespace

const std::vector<McpTool>& mcp_tools() {
  static const std::vector<McpTool> tools = make_tools();
  return tools;
}

const McpTool* find_mcp_tool(std::string_view name) {
  const auto& tools = mcp_tools();
  auto it =
      std::find_if(tools.begin(), tools.end(), [&](const McpTool& t) { return t.name == name; });
  return it == tools.end() ? nullptr : &*it;
}

Result<void> only_arguments(const rapidjson::Value& args,
                            std::initializer_list<std::string_view> allowed) {
  return FieldReader(args).only(allowed);
}

Result<std::optional<int64_t>> integer_argument(const rapidjson::Value& args, std::string_view name,
                                                int64_t min, int64_t max) {
  const rapidjson::Value* v = FieldReader(args).get(name);
  if (v == nullptr || v->IsNull()) return std::optional<int64_t>();
  auto refused = [&] {
    return ApiError::invalid("'" + std::string(name) + "' must be an integer from " +
                             std::to_string(min) + " to " + std::to_string(max) + ".");
  };
  if (!v->IsNumber()) return refused();
  // JSON has one number type: 5.0 is the integer 5.
  const double d = v->GetDouble();
  if (d != std::floor(d) || d < static_cast<double>(min) || d > static_cast<double>(max))
    return refused();
  const int64_t n = v->IsInt64() ? v->GetInt64() : static_cast<int64_t>(d);
  return std::optional<int64_t>(n);
}

}  // namespace parley
