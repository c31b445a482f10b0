// An agent's settings as types: one struct per feature, read from the stored settings JSON once
// when the agent is loaded (domain/agent_cache.h) and handed down as `const AgentSettings&` to
// the engines and domain functions, so none of them reads JSON. Writes are validated where they
// are merged (domain/agent_settings.h); this reader is lenient, as every reader before it was: a
// member of the wrong JSON type is absent, array entries of the wrong type are skipped, and
// values are kept as written (empty strings included), each user deciding what it accepts.
// Immutable once read; safe to share between threads.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/tool_settings.h"

namespace parley {

// The fallback message of an agent that has not set `fallbackMessage`.
inline constexpr std::string_view kDefaultFallbackMessage =
    "Sorry, I don't have an answer to that yet. Could you rephrase your question, or ask about "
    "something else?";

// What shapes every reply.
struct ReplySettings {
  bool show_sources = false;                          // `showSources`
  bool follow_ups = false;                            // `followUps`
  bool save_contact_details = false;                  // `saveContactDetails`
  std::string fallback_message{kDefaultFallbackMessage};  // `fallbackMessage` when not empty
  std::optional<int64_t> monthly_message_cap;         // `monthlyMessageCap`
  std::string engine = "retrieval";                   // `engine`
};

// `llm`: the agent's own provider for the `openai` engine; empty: the server's default.
struct LlmSettings {
  std::string base_url;  // `baseUrl`
  std::string model;
  std::string api_key;  // `apiKey`
  // `embeddingModel`: when set, the provider's `/v1/embeddings` embeds the agent's chunks at
  // training time and each question at chat time, and the LLM's context fuses that ranking with
  // BM25's. Empty: BM25 alone.
  std::string embedding_model;
};

// The answerability threshold of an agent that has not set `answerThreshold`
// (docs/decisions/knowledge.md tells how it was calibrated).
inline constexpr double kDefaultAnswerThreshold = 0.6;

// `knowledgeRefresh`: off (the default), daily or weekly.
enum class KnowledgeRefresh { kOff, kDaily, kWeekly };
std::optional<KnowledgeRefresh> parse_knowledge_refresh(std::string_view value);

// How the agent's knowledge is analysed, matched and judged (docs/decisions/knowledge.md).
struct KnowledgeSettings {
  std::string language = "en";  // `language`: the stemmer and stop words (an ISO 639-1 code)
  // `synonyms`: groups of terms (words or phrases) the agent treats as the same term.
  std::vector<std::vector<std::string>> synonyms;
  // `answerThreshold` (0..1): how much of the question the evidence must cover for the built-in
  // engine to answer instead of giving the fallback message.
  double answer_threshold = kDefaultAnswerThreshold;
  // `knowledgeRefresh`: how often the agent's website sources are revalidated on their own.
  KnowledgeRefresh refresh = KnowledgeRefresh::kOff;
};

// `handoffEmail` and `liveChat`: what the agent does when the user asks for a person.
struct HandoffSettings {
  std::optional<std::string> email;  // `handoffEmail` when not empty
  bool live_chat = false;            // `liveChat`
  bool available() const { return live_chat || email.has_value(); }
};

// One entry of `buttons`.
struct ButtonSetting {
  std::optional<std::string> label;
  std::optional<std::string> url;
  std::vector<std::string> keywords;
};

// One entry of `products`.
struct ProductSetting {
  std::optional<std::string> name;
  std::optional<std::string> url;
  std::vector<std::string> keywords;
  std::optional<std::string> image;
  std::optional<double> price;
  std::optional<double> compare_at_price;  // `compareAtPrice`
  std::optional<std::string> currency;
  std::optional<bool> available;
};

// An entry of a form's `fields`: its `id` and `label` when it is an object and they are strings.
struct FormFieldSetting {
  std::optional<std::string> id;
  std::optional<std::string> label;
};

// One entry of `forms`.
struct FormSetting {
  std::optional<std::string> id;
  std::optional<std::string> name;
  std::optional<std::string> submit_label;  // `submitLabel`
  std::vector<std::string> keywords;
  std::vector<FormFieldSetting> fields;  // every entry, in order
  // `fields` exactly as configured (the chat reply passes them on untouched): compact JSON,
  // "[]" when not an array.
  std::string fields_json = "[]";
};

// `leadForm`.
struct LeadFormSetting {
  std::optional<std::string> message;
  std::vector<std::string> fields;  // the string entries
  std::vector<FormFieldSetting> field_labels;  // every entry of `fields`, read as a form's are
  std::optional<std::string> form_id;  // `formId`
  // Set when `keywords` is a non-empty array (its string entries); otherwise the defaults apply.
  std::optional<std::vector<std::string>> keywords;
};

// A day's availability windows at most: each window's slots are made on every booking question.
// Setting more is refused; a stored setting's windows past it are not read.
inline constexpr size_t kMaxBookingWindowsADay = 24;

// A weekly availability window, minutes after midnight: from < to <= 24 * 60.
struct TimeWindow {
  int from = 0;
  int to = 0;
};

// `booking`.
struct BookingSetting {
  std::optional<std::string> provider;
  std::optional<std::string> event_title;  // `eventTitle`
  std::optional<int64_t> event_length;     // `eventLength`, minutes
  std::optional<std::string> time_zone;    // `timeZone`
  std::optional<int64_t> days_ahead;       // `daysAhead`
  // Set when `keywords` is a non-empty array (its string entries); otherwise the defaults apply.
  std::optional<std::vector<std::string>> keywords;
  // `availability` by weekday, Sunday first: its well-formed ["HH:MM", "HH:MM"] windows.
  std::array<std::vector<TimeWindow>, 7> availability;
};

struct ApiActionParam {
  std::string name;
  std::string description;
  bool required = false;
};

// One well-formed entry of `apiActions` (engine/api_actions.h runs them).
struct ApiAction {
  std::string name;  // letters, digits, '_' and '-', up to 50
  std::string description;
  std::string method = "GET";  // GET, POST, PUT, PATCH, DELETE
  std::string url;             // "https://api.example.com/orders/{orderId}"
  std::vector<ApiActionParam> parameters;
  std::vector<std::pair<std::string, std::string>> headers;
};

// The widget's own rules, as written (domain/widget_rules.h normalises them).
struct WidgetSettings {
  std::vector<std::string> allowed_domains;    // `allowedDomains`
  std::vector<std::string> blocked_countries;  // `blockedCountries`
  std::optional<int64_t> messages_per_visitor;  // `messagesPerVisitor`
};

struct AgentSettings {
  ReplySettings reply;
  KnowledgeSettings knowledge;
  std::string instructions;
  bool topic_analysis = false;  // `topicAnalysis`
  LlmSettings llm;
  HandoffSettings handoff;
  std::vector<ButtonSetting> buttons;
  std::vector<ProductSetting> products;
  std::vector<FormSetting> forms;
  std::optional<LeadFormSetting> lead_form;
  std::optional<BookingSetting> booking;
  std::vector<ApiAction> api_actions;
  WidgetSettings widget;
  ToolSettings tools;  // `mcpServers` and `webSearch` (model/tool_settings.h)
};

// Reads stored settings; text that is not a JSON object gives the defaults.
AgentSettings parse_agent_settings(std::string_view settings_json);

// The settings of an agent that has set none, shared (what a reply request starts with).
const std::shared_ptr<const AgentSettings>& default_agent_settings();

// An API action's or parameter's name: 1 to 50 letters, digits, '_' or '-'.
bool valid_action_name(std::string_view name);

}  // namespace parley
