#include "engine/openai_engine.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <set>

#include "core/json.h"
#include "engine/booking.h"
#include "engine/handoff_intent.h"
#include "engine/offers.h"
#include "engine/semantic_search.h"
#include "knowledge/rank_fusion.h"
#include "net/outbound.h"
#include "text/normalizer.h"

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

// The titles (`label` of buttons, `name` of products) of configured items that have one.
template <typename Item, typename Title>
std::vector<std::string> titles(const std::vector<Item>& items, Title title) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    const std::optional<std::string>& t = item.*title;
    if (t && !t->empty()) out.push_back(*t);
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
  auto parsed = parse_json_value(arguments);
  if (!parsed.ok() || !parsed->IsObject()) return out;
  const rapidjson::Document& args = *parsed;
  auto names = args.FindMember("names");
  if (names == args.MemberEnd() || !names->value.IsArray()) return out;
  for (const auto& n : names->value.GetArray())
    if (n.IsString()) out.emplace_back(n.GetString(), n.GetStringLength());
  return out;
}

// Whether the model gave the agent's fallback message (as the prompt asks when the knowledge does
// not answer): the reply is that message, or holds it whole, case and punctuation aside.
bool is_fallback(std::string_view text, std::string_view fallback) {
  std::string reply = normalize_for_match(text), expected = normalize_for_match(fallback);
  if (expected.empty()) return false;
  return reply == expected || reply.find(expected) != std::string::npos;
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
                                        std::vector<SourceRef>& cited,
                                        const std::vector<RetrievedChunk>& semantic) {
  std::string system(instructions.empty() ? kDefaultInstructions : instructions);
  std::string knowledge;
  if (request.knowledge != nullptr) {
    for (const auto& qa : request.knowledge->match_qa(request.agent_id, request.settings->knowledge,
                                                      request.message, kPromptQa)) {
      cited.push_back({qa.source_id, qa.question, std::nullopt});
      knowledge += "[" + std::to_string(cited.size()) + "] Question: " + qa.question +
                   "\nAnswer: " + qa.answer + "\n\n";
    }
    // With a vector ranking both rankings go deeper, and their fusion keeps the best.
    auto chunks =
        request.knowledge->search(request.agent_id, request.settings->knowledge, request.message,
                                  semantic.empty() ? kPromptChunks : kFusionCandidates);
    if (!semantic.empty()) chunks = fuse_rankings({&chunks, &semantic}, kPromptChunks);
    for (const auto& chunk : chunks) {
      cited.push_back({chunk.source_id, citation_title(chunk.title, chunk.url), chunk.url});
      knowledge += "[" + std::to_string(cited.size()) + "] " + chunk.title.value_or("") + "\n" +
                   chunk.text + "\n\n";
    }
  }
  if (!knowledge.empty()) {
    system += "\n\nKnowledge (cite the items you use by their number, like [1]):\n\n" + knowledge;
  }
  // The same promise as the built-in engine's: an answer from the knowledge, or the fallback.
  system +=
      "\n\nAnswer only from the knowledge above. When it does not answer the question, reply with "
      "exactly this and nothing else: " +
      request.settings->reply.fallback_message;
  std::vector<PromptMessage> messages;
  messages.push_back({"system", std::move(system), {}, ""});
  for (const auto& m : request.history)
    messages.push_back({m.role == "user" ? "user" : "assistant", m.content, {}, ""});
  messages.push_back({"user", request.message, {}, ""});
  return messages;
}

namespace {
// What an agent's settings offer the model as tools for one reply, and what running them needs.
struct Toolbox {
  const ReplyRequest& request;
  const AgentSettings& settings;
  const Clock& clock;
  const ApiActionCaller* caller;
  const HandoffSettings& handoff;
  bool has_booking = false;
  std::vector<std::string> forms;
  std::optional<LeadFormBlock> lead;
  const std::vector<ApiAction>* actions = nullptr;  // null: none offered

  // The tool specs, each only when the agent has what it needs.
  std::vector<ToolSpec> specs() const {
    std::vector<ToolSpec> out;
    if (handoff.available()) {
      out.push_back({std::string(kHumanTool),
                     "Call this when the user asks to talk to a person (a human, someone from "
                     "the team) instead of the assistant.",
                     R"({"type":"object","properties":{}})"});
    }
    if (auto buttons = titles(settings.buttons, &ButtonSetting::label); !buttons.empty()) {
      out.push_back(choice_tool(
          kButtonsTool, "Shows the user link buttons when one fits the question.", buttons));
    }
    if (auto products = titles(settings.products, &ProductSetting::name); !products.empty()) {
      out.push_back(choice_tool(kProductsTool,
                                "Shows the user products from the catalogue that fit the question.",
                                products));
    }
    if (has_booking) {
      out.push_back({std::string(kBookingTool),
                     "Shows the user free meeting slots to book when they want a meeting or call.",
                     R"({"type":"object","properties":{}})"});
    }
    if (!forms.empty()) {
      out.push_back(choice_tool(
          kFormTool, "Shows the user one of the agent's forms to fill in (give one name).", forms));
    }
    if (lead) {
      out.push_back({std::string(kLeadFormTool),
                     "Shows the user a form for their contact details when they want to be "
                     "contacted or when you cannot help.",
                     R"({"type":"object","properties":{}})"});
    }
    if (actions != nullptr)
      for (const auto& a : *actions) out.push_back(api_action_tool(a));
    return out;
  }

  // Runs one tool call: fills `blocks` and returns the result the model reads.
  std::string run(const ToolCall& tool, ReplyBlocks& blocks) const {
    if (tool.name == kHumanTool && handoff.available()) {
      if (handoff.live_chat) {
        blocks.live_chat = "offered";
        return R"({"ok":true,"result":"Live chat with the team was offered to the user; ask whether they want it."})";
      }
      blocks.handoff = true;
      return R"({"ok":true,"result":"The conversation was emailed to the team; tell the user someone will get back to them."})";
    }
    if (tool.name == kButtonsTool || tool.name == kProductsTool) {
      // Picked by exact title; a title the model invents shows nothing.
      size_t before = blocks.buttons.size() + blocks.products.size();
      for (const auto& name : chosen(tool.arguments)) {
        if (tool.name == kButtonsTool) {
          for (auto& b : match_buttons_titled(settings, name))
            blocks.buttons.push_back(std::move(b));
        } else {
          for (auto& p : match_products_titled(settings, name))
            blocks.products.push_back(std::move(p));
        }
      }
      bool shown = blocks.buttons.size() + blocks.products.size() > before;
      return shown ? R"({"ok":true,"result":"Shown to the user."})"
                   : R"({"ok":false,"error":"no such item"})";
    }
    if (tool.name == kFormTool && !forms.empty()) {
      auto names = chosen(tool.arguments);
      if (!names.empty()) blocks.form = form_named(settings, names.front());
      return blocks.form ? R"({"ok":true,"result":"The form was shown to the user."})"
                         : R"({"ok":false,"error":"no such form"})";
    }
    if (tool.name == kLeadFormTool && lead) {
      blocks.lead_form = lead;
      return R"({"ok":true,"result":"The contact form was shown to the user."})";
    }
    if (tool.name == kBookingTool && has_booking) {
      blocks.booking = booking_offer(settings, request.time_zone, clock.now_ms());
      return R"({"ok":true,"result":"Free slots were shown to the user."})";
    }
    if (tool.name.rfind(kApiActionToolPrefix, 0) == 0 && caller != nullptr && actions != nullptr) {
      std::string_view name = std::string_view(tool.name).substr(kApiActionToolPrefix.size());
      auto it = std::find_if(actions->begin(), actions->end(),
                             [&](const ApiAction& a) { return a.name == name; });
      if (it != actions->end()) return caller->call(*it, tool.arguments);
    }
    return R"({"ok":false,"error":"unknown tool"})";
  }
};
}  // namespace

namespace {
// One reply under way: the prompt, the rounds of completions and tool calls, the text so far.
// Owned by its own callbacks (shared_ptr) from start() until `done` ran; the steps run one after
// another, never at once, on the starting thread, the outbound loop or the blocking pool.
class OpenAiReply : public std::enable_shared_from_this<OpenAiReply> {
  // One round's tool calls and their results as they come in.
  struct ToolBatch {
    Completion completion;
    std::vector<std::string> results;
    std::atomic<size_t> left{0};
  };

 public:
  OpenAiReply(const Clock& clock, const OpenAiClient& client, ThreadPool& blocking,
              const ToolRunOptions& tool_options, const ApiActionCaller* guard,
              McpSessionCache& sessions, std::shared_ptr<const ReplyRequest> request, TextSink sink,
              ReplyDone done)
      : clock_(clock),
        client_(client),
        blocking_(blocking),
        max_rounds_(tool_options.max_rounds),
        request_(std::move(request)),
        sink_(std::move(sink)),
        done_(std::move(done)),
        tools_{*request_, *request_->settings, clock,  nullptr, request_->settings->handoff, false,
               {},        std::nullopt,        nullptr},
        agent_tools_(clock, guard, blocking, sessions, tool_options.agent) {}

  // On the starting thread: the provider, the knowledge, the prompt; then the first round.
  void start(const LlmDefaults& defaults, const ApiActionCaller* actions,
             const VectorIndex* vectors, const EmbeddingsClient& embeddings) {
    const ReplyRequest& request = *request_;
    const AgentSettings& settings = *request.settings;
    // A provider a team member points the agent at passes the address guard once per reply,
    // every call of the reply (the question's embedding included) is pinned to the address
    // checked then, and it never receives the server's own key: that goes only to the server's
    // provider.
    auto provider = llm_target(settings.llm, defaults, actions);
    if (!provider.ok()) return finish(provider.error());
    call_.base_url = provider->base_url;
    call_.model = provider->model;
    call_.api_key = provider->api_key;
    call_.pin = provider->pin;
    if (!provider->pin) call_.ca_file = defaults.ca_file;  // the server's provider only
    tools_.caller = actions;
    // The agent's MCP servers and search provider pass the guard here, once per reply.
    agent_tools_.prepare(request);
    if (vectors != nullptr && request.knowledge != nullptr) {
      auto embedding =
          question_embedding_call(*vectors, request, *provider,
                                  question_embedding_timeout(request.deadline_ms, clock_.now_ms()));
      if (embedding) {
        embedding->ca_file = call_.ca_file;
        // The question's embedding comes back on the outbound loop; ranking by it reads the
        // agent's vectors (possibly from the database), so the prompt is built on the pool.
        embeddings.start(*embedding,
                         [self = shared_from_this(), vectors](Result<Embeddings> embedded) {
                           self->blocking_.post([self, vectors, embedded = std::move(embedded)] {
                             self->prompt_and_ask(chunks_near(*vectors, *self->request_, embedded));
                           });
                         });
        return;
      }
    }
    prompt_and_ask({});
  }

 private:
  // The prompt, with `semantic` (the vector ranking; may be empty) fused into the knowledge;
  // then the first round.
  void prompt_and_ask(const std::vector<RetrievedChunk>& semantic) {
    const ReplyRequest& request = *request_;
    const AgentSettings& settings = *request.settings;
    const ApiActionCaller* actions = tools_.caller;
    call_.messages = build_prompt(request, settings.instructions, knowledge_, semantic);
    // How surely the knowledge answers, by the same measure as the built-in engine's, so that a
    // reply's outcome means the same whichever engine wrote it.
    if (request.knowledge != nullptr)
      confidence_ =
          request.knowledge->answer(request.agent_id, settings.knowledge, request.message, 3)
              .confidence;
    tools_.has_booking = settings.booking.has_value();
    tools_.forms = form_names(settings);
    tools_.lead = lead_form(settings);
    if (actions != nullptr) tools_.actions = &settings.api_actions;
    call_.tools = tools_.specs();
    call_.generation = request.generation;
    // The remote servers' tools are learnt (or found in the cache) before the first round.
    agent_tools_.list([self = shared_from_this()] {
      for (auto& spec : self->agent_tools_.specs()) self->call_.tools.push_back(std::move(spec));
      self->next_round();
    });
  }

  void next_round() {
    const ReplyRequest& request = *request_;
    call_.timeout_ms = request.deadline_ms > 0 ? request.deadline_ms - clock_.now_ms() : 55000;
    // The rounds of tools are over: the model answers with what it has.
    call_.no_more_tools = round_ >= max_rounds_;
    auto self = shared_from_this();
    client_.start(
        call_,
        [self](std::string_view piece) {
          self->text_ += piece;
          self->listening_ = self->sink_(piece);
          // The reader is behind: stop reading the provider until it has caught up, so that a
          // slow reader slows the provider down instead of text piling up here.
          auto& pacer = self->request_->pacer;
          if (self->listening_ && pacer) {
            if (auto transfer = this_transfer()) {
              if (pacer->behind([transfer] { transfer->resume(); })) transfer->pause();
            }
          }
          return self->listening_;
        },
        [self](Result<Completion> done) { self->after_round(std::move(done)); });
  }

  // On the outbound loop: another round for the tools the model called, or the end.
  void after_round(Result<Completion> done) {
    if (!done.ok()) return finish(done.error());
    Completion completion = std::move(done).value();
    if (completion.finish_reason == "length") blocks_.cut_at_length = true;
    if (!listening_ || completion.tool_calls.empty() || round_ >= max_rounds_) return finish_ok();
    ++round_;
    // Every call of the round starts at once; the last to answer starts the next round. The
    // agent's remote tools answer on the outbound loop, API actions (which wait on another
    // service) on the blocking pool, the others here.
    auto batch = std::make_shared<ToolBatch>();
    batch->completion = std::move(completion);
    const size_t n = batch->completion.tool_calls.size();
    batch->results.resize(n);
    batch->left = n;
    for (size_t i = 0; i < n; ++i) {
      const ToolCall& tool = batch->completion.tool_calls[i];
      auto answered = [self = shared_from_this(), batch, i](std::string result) {
        batch->results[i] = std::move(result);
        if (batch->left.fetch_sub(1, std::memory_order_acq_rel) == 1) self->after_tools(*batch);
      };
      if (agent_tools_.handles(tool.name)) {
        agent_tools_.run(tool, std::move(answered));
      } else if (tool.name.rfind(kApiActionToolPrefix, 0) == 0) {
        blocking_.post([self = shared_from_this(), &tool, answered = std::move(answered)] {
          answered(self->tools_.run(tool, self->blocks_));
        });
      } else {
        answered(tools_.run(tool, blocks_));
      }
    }
  }

  // The round's results in the order the model asked, then the next round.
  void after_tools(ToolBatch& batch) {
    call_.messages.push_back({"assistant", batch.completion.text, batch.completion.tool_calls, ""});
    for (size_t i = 0; i < batch.results.size(); ++i)
      call_.messages.push_back(
          {"tool", std::move(batch.results[i]), {}, batch.completion.tool_calls[i].id});
    next_round();
  }

  void finish_ok() {
    for (size_t n : citations(text_, knowledge_.size()))
      blocks_.sources.push_back(knowledge_[n - 1]);
    for (auto& page : agent_tools_.web_sources()) blocks_.sources.push_back(std::move(page));
    const AgentSettings& settings = *request_->settings;
    blocks_.confidence = confidence_;
    blocks_.outcome = reply_outcome(is_fallback(text_, settings.reply.fallback_message),
                                    confidence_, settings.knowledge.answer_threshold);
    finish(std::move(blocks_));
  }

  void finish(Result<ReplyBlocks> outcome) {
    auto done = std::move(done_);
    done(std::move(outcome));
  }

  const Clock& clock_;
  const OpenAiClient& client_;
  ThreadPool& blocking_;
  int max_rounds_;
  std::shared_ptr<const ReplyRequest> request_;
  TextSink sink_;
  ReplyDone done_;
  Toolbox tools_;
  AgentTools agent_tools_;
  CompletionRequest call_;
  std::vector<SourceRef> knowledge_;
  ReplyBlocks blocks_;
  std::string text_;
  std::optional<double> confidence_;
  bool listening_ = true;
  int round_ = 0;
};
}  // namespace

void OpenAiEngine::start_reply(std::shared_ptr<const ReplyRequest> request, TextSink sink,
                               ReplyDone done) const {
  auto reply = std::make_shared<OpenAiReply>(clock_, client_, blocking_ ? *blocking_ : own_pool(),
                                             tools_, actions_, mcp_sessions_, std::move(request),
                                             std::move(sink), std::move(done));
  reply->start(defaults_, actions_, vectors_, embeddings_);
}

Result<ReplyBlocks> OpenAiEngine::reply(const ReplyRequest& request, const TextSink& sink) const {
  std::promise<Result<ReplyBlocks>> finished;
  auto outcome = finished.get_future();
  start_reply(std::make_shared<const ReplyRequest>(request), sink,
              [&finished](Result<ReplyBlocks> r) { finished.set_value(std::move(r)); });
  return outcome.get();
}

ThreadPool& OpenAiEngine::own_pool() const {
  std::call_once(own_pool_made_, [this] { own_pool_ = std::make_unique<ThreadPool>(2); });
  return *own_pool_;
}

}  // namespace parley
