// The `openai` reply engine: asks an OpenAI-compatible provider for the reply and streams its
// text token by token. The prompt is the agent's `instructions` as system message, the agent's
// retrieved chunks and Q&A pairs (numbered, so the model can cite them and the reply's `sources`
// list what it cited) with the rule to answer only from them or give the agent's fallback
// message, the conversation's last 40 messages and the new message. When the agent
// can hand off (`liveChat` or `handoffEmail`), the model gets a `request_human` tool; configured
// buttons and products become `show_buttons` / `show_products`, API actions `action_<name>`,
// and the agent's remote MCP servers and web search their own (engine/agent_tools.h).
// Provider, model and key come from the agent's `llm` settings, else from the server's defaults.
// A reply waiting on its provider holds no thread: start_reply() builds the prompt on the calling
// thread, then each completion streams on the outbound loop (net/outbound.h) and the next round
// starts from its callback; only a round calling API actions, which wait on another service,
// runs on the blocking pool. The tools the model calls in one round run at once; the next round
// starts when the last one answered. After `max_rounds` rounds of tools the model is asked for
// its answer with tools turned off (`tool_choice: none`). Stateless apart from its options and
// the MCP servers' session cache; safe from many threads.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "core/clock.h"
#include "core/thread_pool.h"
#include "engine/agent_tools.h"
#include "engine/api_actions.h"
#include "engine/embeddings_client.h"
#include "engine/openai_client.h"
#include "engine/reply_engine.h"
#include "knowledge/vector_index.h"

namespace parley {

// Chunks and Q&A pairs put in the prompt at most.
inline constexpr size_t kPromptChunks = 5;
inline constexpr size_t kPromptQa = 3;
// Rounds of tool calls before the engine stops asking (the default of --tool-max-rounds).
inline constexpr int kMaxToolRounds = 3;

// How the engine runs the tools of a reply (`parley serve` options).
struct ToolRunOptions {
  AgentToolOptions agent;  // MCP servers and web search
  int max_rounds = kMaxToolRounds;
};

// The prompt for a request (exposed for tests): system message with instructions and numbered
// knowledge, then history, then the user's message. `cited` receives the knowledge in order.
// `semantic`: the agent's chunks ranked by embedding (engine/semantic_search.h); when not empty
// the prompt's chunks are its ranking fused with BM25's (knowledge/rank_fusion.h).
std::vector<PromptMessage> build_prompt(const ReplyRequest& request, std::string_view instructions,
                                        std::vector<SourceRef>& cited,
                                        const std::vector<RetrievedChunk>& semantic = {});

class OpenAiEngine final : public ReplyEngine {
 public:
  // `actions` runs the agents' API actions; null: none are offered. `vectors`: the agents'
  // chunk vectors for hybrid retrieval (`llm.embeddingModel`); null: BM25 alone.
  // `blocking`: where rounds that call API actions run; null: a small pool of the engine's own.
  // `tools`: how tool calls run (the timeout of one, the rounds of a reply, the key that opens
  // the settings' secrets).
  OpenAiEngine(const Clock& clock, LlmDefaults defaults, const ApiActionCaller* actions,
               const VectorIndex* vectors = nullptr, ThreadPool* blocking = nullptr,
               ToolRunOptions tools = {})
      : clock_(clock), defaults_(std::move(defaults)), actions_(actions), vectors_(vectors),
        blocking_(blocking), tools_(tools) {}

  Result<ReplyBlocks> reply(const ReplyRequest& request, const TextSink& sink) const override;
  void start_reply(std::shared_ptr<const ReplyRequest> request, TextSink sink,
                   ReplyDone done) const override;

 private:
  ThreadPool& own_pool() const;

  const Clock& clock_;
  LlmDefaults defaults_;
  const ApiActionCaller* actions_;
  const VectorIndex* vectors_;
  ThreadPool* blocking_;
  ToolRunOptions tools_;
  mutable McpSessionCache mcp_sessions_;
  OpenAiClient client_;
  EmbeddingsClient embeddings_;
  mutable std::once_flag own_pool_made_;
  mutable std::unique_ptr<ThreadPool> own_pool_;
};

}  // namespace parley
