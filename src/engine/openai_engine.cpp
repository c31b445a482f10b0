#include "engine/openai_engine.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <set>

#include "core/json.h"
#include "engine/booking.h"
#include "engine/handoff_intent.h"
#include "engine/offers.h"

namespace parley {

namespace {
constexpr std::string_view kDefaultInstructions =
    "You are a helpful assistant answering questions for a business. Answer briefly and only from "
    "the knowledge below; when it does not cover the question, say so.";

constexpr std::string_view kHumanTool = "request_human";
constexpr std::string_view kButtonsTool = "show_buttons";
constexpr std::string_view kProductsTool = "show_products";
constexpr std::string_view kBookingTool = "show_booking";
constexpr std::string_view kFormTool = "show_form";
constexpr std::string_view kLeadFormTool = "ask_contact_details";

// The titles (`label` of buttons, `name` of products) of the settings array `array`.
std::vector<std::string> titles(const rapidjson::Value& settings, const char* array,
                                const char* title) {
  std::vector<std::string> out;
  auto items = settings.FindMember(array);
  if (items == settings.MemberEnd() || !items->value.IsArray()) return out;
  for (const auto& item : items->value.GetArray()) {
    if (!item.IsObject()) continue;
    auto t = item.FindMember(title);
    if (t != item.MemberEnd() && t->value.IsString() && t->value.GetStringLength() > 0)
      out.emplace_back(t->value.GetString(), t->value.GetStringLength());
  }
  return out;
}

// A tool whose one parameter `names` lists some of `choices`.
ToolSpec choice_tool(std::string_view name, std::string_view description,
                     const std::vector<std::string>& choices) {
  JsonWriter w;
  w.begin_object().key("type").string("object").key("properties").begin_object();
  w.key("names").begin_object().key("type").string("array").key("items").begin_object();
  w.key("type").string("string").key("enum").begin_array();
  for (const auto& c : choices) w.string(c);
  w.end_array().end_object().end_object().end_object();
  w.key("required").begin_array().string("names").end_array().end_object();
  return {std::string(name), std::string(description), w.str()};
}

// The `names` the model passed to a choice tool.
std::vector<std::string> chosen(std::string_view arguments) {
  std::vector<std::string> out;
  rapidjson::Document args;
  args.Parse(arguments.data(), arguments.size());
  if (args.HasParseError() || !args.IsObject()) return out;
  auto names = args.FindMember("names");
  if (names == args.MemberEnd() || !names->value.IsArray()) return out;
  for (const auto& n : names->value.GetArray())
    if (n.IsString()) out.emplace_back(n.GetString(), n.GetStringLength());
  return out;
}

std::string string_setting(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return {it->value.GetString(), it->value.GetStringLength()};
}

// Which numbered knowledge items ("[1]", "[2]") the reply cites.
std::set<size_t> citations(std::string_view text, size_t count) {
  std::set<size_t> out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '[') continue;
    size_t j = i + 1, n = 0;
    while (j < text.size() && j < i + 4 && text[j] >= '0' && text[j] <= '9')
      n = n * 10 + (text[j++] - '0');
    if (j > i + 1 && j < text.size() && text[j] == ']' && n >= 1 && n <= count) out.insert(n);
  }
  return out;
}
}  // namespace

std::vector<PromptMessage> build_prompt(const ReplyRequest& request, std::string_view instructions,
                                        std::vector<SourceRef>& cited) {
  std::string system(instructions.empty() ? kDefaultInstructions : instructions);
  std::string knowledge;
  if (request.knowledge != nullptr) {
    for (const auto& qa :
         request.knowledge->match_qa(request.agent_id, request.message, kPromptQa)) {
      cited.push_back({qa.source_id, qa.question, std::nullopt});
      knowledge += "[" + std::to_string(cited.size()) + "] Question: " + qa.question +
                   "\nAnswer: " + qa.answer + "\n\n";
    }
    for (const auto& chunk :
         request.knowledge->search(request.agent_id, request.message, kPromptChunks)) {
      cited.push_back({chunk.source_id, chunk.title.value_or(chunk.url.value_or("")), chunk.url});
      knowledge += "[" + std::to_string(cited.size()) + "] " + chunk.title.value_or("") + "\n" +
                   chunk.text + "\n\n";
    }
  }
  if (!knowledge.empty()) {
    system += "\n\nKnowledge (cite the items you use by their number, like [1]):\n\n" + knowledge;
  }
  std::vector<PromptMessage> messages;
  messages.push_back({"system", std::move(system), {}, ""});
  for (const auto& m : request.history)
    messages.push_back({m.role == "user" ? "user" : "assistant", m.content, {}, ""});
  messages.push_back({"user", request.message, {}, ""});
  return messages;
}

Result<ReplyBlocks> OpenAiEngine::reply(const ReplyRequest& request, const TextSink& sink) const {
  rapidjson::Document settings;
  settings.Parse(request.settings_json.data(), request.settings_json.size());
  if (settings.HasParseError() || !settings.IsObject()) settings.SetObject();
  std::string instructions = string_setting(settings, "instructions");
  const rapidjson::Value* llm = nullptr;
  if (auto it = settings.FindMember("llm"); it != settings.MemberEnd() && it->value.IsObject())
    llm = &it->value;

  CompletionRequest call;
  call.base_url = llm ? string_setting(*llm, "baseUrl") : "";
  call.model = llm ? string_setting(*llm, "model") : "";
  call.api_key = llm ? string_setting(*llm, "apiKey") : "";
  if (call.base_url.empty()) call.base_url = defaults_.base_url;
  if (call.model.empty()) call.model = defaults_.model;
  if (call.api_key.empty()) call.api_key = defaults_.api_key;

  std::vector<SourceRef> knowledge;
  call.messages = build_prompt(request, instructions, knowledge);
  HandoffSettings handoff = read_handoff_settings(request.settings_json);
  if (handoff.available()) {
    call.tools.push_back({std::string(kHumanTool),
                          "Call this when the user asks to talk to a person (a human, someone from "
                          "the team) instead of the assistant.",
                          R"({"type":"object","properties":{}})"});
  }

  auto button_titles = titles(settings, "buttons", "label");
  auto product_titles = titles(settings, "products", "name");
  if (!button_titles.empty()) {
    call.tools.push_back(choice_tool(
        kButtonsTool, "Shows the user link buttons when one fits the question.", button_titles));
  }
  if (!product_titles.empty()) {
    call.tools.push_back(choice_tool(
        kProductsTool, "Shows the user products from the catalogue that fit the question.",
        product_titles));
  }

  bool has_booking = settings.HasMember("booking") && settings["booking"].IsObject();
  if (has_booking) {
    call.tools.push_back(
        {std::string(kBookingTool),
         "Shows the user free meeting slots to book when they want a meeting or call.",
         R"({"type":"object","properties":{}})"});
  }
  auto forms = form_names(request.settings_json);
  if (!forms.empty()) {
    call.tools.push_back(choice_tool(
        kFormTool, "Shows the user one of the agent's forms to fill in (give one name).", forms));
  }
  auto lead = lead_form(request.settings_json);
  if (lead) {
    call.tools.push_back({std::string(kLeadFormTool),
                          "Shows the user a form for their contact details when they want to be "
                          "contacted or when you cannot help.",
                          R"({"type":"object","properties":{}})"});
  }
  std::vector<ApiAction> actions;
  if (actions_ != nullptr) actions = read_api_actions(request.settings_json);
  for (const auto& a : actions) call.tools.push_back(api_action_tool(a));

  ReplyBlocks blocks;
  std::string text;
  bool listening = true;
  for (int round = 0; round <= kMaxToolRounds; ++round) {
    call.timeout_ms = request.deadline_ms > 0 ? request.deadline_ms - clock_.now_ms() : 55000;
    PARLEY_ASSIGN_OR_RETURN(Completion done, client_.complete(call, [&](std::string_view piece) {
      text += piece;
      listening = sink(piece);
      return listening;
    }));
    if (!listening || done.tool_calls.empty() || round == kMaxToolRounds) break;
    PromptMessage asked{"assistant", done.text, done.tool_calls, ""};
    call.messages.push_back(std::move(asked));
    for (const auto& tool : done.tool_calls) {
      std::string result;
      if (tool.name == kHumanTool && handoff.available()) {
        if (handoff.live_chat) {
          blocks.live_chat = "offered";
          result =
              R"({"ok":true,"result":"Live chat with the team was offered to the user; ask whether they want it."})";
        } else {
          blocks.handoff = true;
          result =
              R"({"ok":true,"result":"The conversation was emailed to the team; tell the user someone will get back to them."})";
        }
      } else if (tool.name == kButtonsTool || tool.name == kProductsTool) {
        // Matched by exact title through the same code the retrieval engine uses.
        size_t shown = 0;
        for (const auto& name : chosen(tool.arguments)) {
          if (tool.name == kButtonsTool) {
            for (auto& b : match_buttons_titled(request.settings_json, name))
              blocks.buttons.push_back(std::move(b)), ++shown;
          } else {
            for (auto& p : match_products_titled(request.settings_json, name))
              blocks.products.push_back(std::move(p)), ++shown;
          }
        }
        result = shown > 0 ? R"({"ok":true,"result":"Shown to the user."})"
                           : R"({"ok":false,"error":"no such item"})";
      } else if (tool.name == kFormTool && !forms.empty()) {
        auto names = chosen(tool.arguments);
        if (!names.empty()) blocks.form_json = form_named(request.settings_json, names.front());
        result = blocks.form_json ? R"({"ok":true,"result":"The form was shown to the user."})"
                                  : R"({"ok":false,"error":"no such form"})";
      } else if (tool.name == kLeadFormTool && lead) {
        blocks.lead_form_json = lead;
        result = R"({"ok":true,"result":"The contact form was shown to the user."})";
      } else if (tool.name == kBookingTool && has_booking) {
        blocks.booking_json =
            booking_offer(request.settings_json, request.time_zone, clock_.now_ms());
        result = R"({"ok":true,"result":"Free slots were shown to the user."})";
      } else if (tool.name.rfind(kApiActionToolPrefix, 0) == 0 && actions_ != nullptr) {
        std::string_view name = std::string_view(tool.name).substr(kApiActionToolPrefix.size());
        auto it = std::find_if(actions.begin(), actions.end(),
                               [&](const ApiAction& a) { return a.name == name; });
        result = it == actions.end() ? R"({"ok":false,"error":"unknown tool"})"
                                     : actions_->call(*it, tool.arguments);
      } else {
        result = R"({"ok":false,"error":"unknown tool"})";
      }
      call.messages.push_back({"tool", result, {}, tool.id});
    }
  }
  auto cited = citations(text, knowledge.size());
  for (size_t n : cited) blocks.sources.push_back(knowledge[n - 1]);
  return blocks;
}

}  // namespace parley
