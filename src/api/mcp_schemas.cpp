// The JSON Schemas of the MCP tools' arguments and structured results. A result's schema is the
// REST endpoint's response body (docs/openapi.yaml) with the fields a client relies on required
// and typed; the others are left open so that a field the API adds later never fails a client's
// validation (the MCP SDK checks every structured result against its tool's outputSchema).
#include <map>
#include <string>

#include "api/mcp.h"

namespace parley {

namespace {
// Pieces the schemas share.
constexpr std::string_view kText = R"({"type":"string"})";
constexpr std::string_view kNullableText = R"({"type":["string","null"]})";
constexpr std::string_view kTime = R"({"type":"string","format":"date-time"})";
constexpr std::string_view kAgentId =
    R"({"type":"string","minLength":1,"description":"An agent's id agt_…, from list_agents"})";
constexpr std::string_view kPaging =
    R"("limit":{"type":"integer","minimum":1,"maximum":100,)"
    R"("description":"Items per page, 20 unless given"},)"
    R"("cursor":{"type":"string","description":"The nextCursor of the previous page"},)"
    R"("since":{"type":"string","format":"date-time",)"
    R"("description":"Only items created at or after this time"})";

std::string object(std::string_view properties, std::string_view required) {
  std::string s = R"({"type":"object","properties":{)";
  s.append(properties).append("}");
  if (!required.empty()) s.append(R"(,"required":[)").append(required).append("]");
  return s.append("}");
}

std::string prop(std::string_view name, std::string_view schema) {
  return std::string("\"").append(name).append("\":").append(schema);
}

std::string join(std::initializer_list<std::string> parts) {
  std::string s;
  for (const auto& p : parts) {
    if (!s.empty()) s.push_back(',');
    s.append(p);
  }
  return s;
}

std::string array_of(std::string_view items) {
  return std::string(R"({"type":"array","items":)").append(items).append("}");
}

// {data: [item…], hasMore, nextCursor}: a REST list page.
std::string page_of(std::string_view item) {
  return object(join({prop("data", array_of(item)), prop("hasMore", R"({"type":"boolean"})"),
                      prop("nextCursor", kNullableText)}),
                R"("data","hasMore","nextCursor")");
}

std::string agent() {
  return object(
      join({prop("id", kText), prop("name", kText), prop("private", R"({"type":"boolean"})"),
            prop("status", kText), prop("trainedAt", R"({"type":["string","null"]})"),
            prop("characters", R"({"type":"integer"})"), prop("counts", R"({"type":"object"})"),
            prop("createdAt", kTime), prop("updatedAt", kTime)}),
      R"("id","name","private","status","createdAt","updatedAt")");
}

std::string citation() {
  return object(join({prop("title", kNullableText), prop("url", kNullableText)}),
                R"("title","url")");
}

std::string contact() {
  return object(join({prop("id", kText), prop("agentId", kText), prop("externalId", kNullableText),
                      prop("email", kNullableText), prop("phone", kNullableText),
                      prop("name", kNullableText), prop("attributes", R"({"type":"object"})"),
                      prop("source", kText), prop("createdAt", kTime), prop("updatedAt", kTime)}),
                R"("id","agentId","externalId","email","phone","name","attributes","source")");
}

std::string conversation_summary() {
  return object(join({prop("id", kText), prop("sessionId", kText), prop("channel", kText),
                      prop("createdAt", kTime), prop("lastActivityAt", kTime),
                      prop("messageCount", R"({"type":"integer"})")}),
                R"("id","sessionId","channel","createdAt","lastActivityAt","messageCount")");
}

std::string message() {
  return object(
      join({prop("id", kText), prop("role", R"({"type":"string","enum":["user","assistant"]})"),
            prop("content", kText), prop("createdAt", kTime),
            prop("sources", array_of(citation()))}),
      R"("id","role","content","createdAt")");
}

std::string conversation() {
  return object(join({prop("id", kText), prop("agentId", kText), prop("sessionId", kText),
                      prop("channel", kText), prop("createdAt", kTime),
                      prop("lastActivityAt", kTime), prop("messages", array_of(message()))}),
                R"("id","agentId","sessionId","channel","messages")");
}

std::string lead() {
  return object(join({prop("id", kText), prop("email", kNullableText), prop("phone", kNullableText),
                      prop("name", kNullableText), prop("customFields", R"({"type":"array"})"),
                      prop("source", kText), prop("conversationId", kNullableText),
                      prop("collectedAt", kTime)}),
                R"("id","email","phone","name","source","collectedAt")");
}

std::string chunk() {
  return object(join({prop("sourceId", kText), prop("sourceType", kText),
                      prop("title", kNullableText), prop("url", kNullableText), prop("text", kText),
                      prop("score", R"({"type":"number"})")}),
                R"("sourceId","sourceType","title","url","text","score")");
}

std::string data_of(std::string_view schema) { return object(prop("data", schema), R"("data")"); }

struct Pair {
  std::string input;
  std::string output;
};

std::map<std::string, Pair, std::less<>> make_schemas() {
  std::map<std::string, Pair, std::less<>> m;
  m["list_agents"] = {object("", ""), data_of(array_of(agent()))};
  m["ask_agent"] = {
      object(join({prop("agentId", kAgentId),
                   prop("message", R"({"type":"string","minLength":1,"maxLength":10000,)"
                                   R"("description":"The question, as a visitor would ask it"})"),
                   prop("conversationId",
                        R"({"type":"string","minLength":1,)"
                        R"("description":"A reply's conversationId: continues it"})")}),
             R"("agentId","message")"),
      object(join({prop("reply", kText), prop("conversationId", kText), prop("sessionId", kText),
                   prop("sources", array_of(citation())), prop("followUps", array_of(kText)),
                   prop("liveChat", kNullableText)}),
             R"("reply","conversationId","sessionId","sources")")};
  m["search_knowledge"] = {
      object(join({prop("agentId", kAgentId),
                   prop("query", R"({"type":"string","minLength":1,"maxLength":1000,)"
                                 R"("description":"What to look for"})"),
                   prop("limit", R"({"type":"integer","minimum":1,"maximum":20,)"
                                 R"("description":"How many passages, 5 unless given"})")}),
             R"("agentId","query")"),
      data_of(array_of(chunk()))};
  m["list_conversations"] = {
      object(prop("agentId", kAgentId) + "," + std::string(kPaging), R"("agentId")"),
      page_of(conversation_summary())};
  m["get_conversation"] = {
      object(prop("conversationId", R"({"type":"string","minLength":1,)"
                                    R"("description":"A conversation's id, cnv_…"})"),
             R"("conversationId")"),
      data_of(conversation())};
  m["list_leads"] = {object(prop("agentId", kAgentId) + "," + std::string(kPaging), R"("agentId")"),
                     page_of(lead())};
  m["find_contact"] = {
      object(join({prop("agentId", kAgentId),
                   prop("email", R"({"type":"string","minLength":1,)"
                                 R"("description":"The contact's email, any case"})"),
                   prop("external_id", R"({"type":"string","minLength":1,)"
                                       R"("description":"The contact's user id on your site"})")}),
             R"("agentId")"),
      object(prop("data", R"({"anyOf":[)" + contact() + R"(,{"type":"null"}]})"), R"("data")")};
  m["upsert_contact"] = {
      object(
          join({prop("agentId", kAgentId),
                prop("external_id", R"({"type":["string","null"],"minLength":1,"maxLength":200})"),
                prop("email", R"({"type":["string","null"],"maxLength":254})"),
                prop("phone", R"({"type":["string","null"],)"
                              R"("description":"7 to 15 digits, optionally preceded by +"})"),
                prop("name", R"({"type":["string","null"],"maxLength":100})"),
                prop("attributes", R"({"type":["object","null"],)"
                                   R"("description":"Merged; a null value removes one"})")}),
          R"("agentId")"),
      object(join({prop("data", contact()),
                   prop("result", R"({"type":"string","enum":["created","updated"]})")}),
             R"("data","result")")};
  return m;
}
}  // namespace

ToolSchemas mcp_schemas(std::string_view tool_name) {
  static const auto schemas = make_schemas();
  auto it = schemas.find(tool_name);
  if (it == schemas.end()) return {R"({"type":"object"})", R"({"type":"object"})"};
  return {it->second.input, it->second.output};
}

}  // namespace parley
