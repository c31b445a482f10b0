// The training worker pool. Work is rows of the sources table: each worker claims the oldest
// pending source (or one whose lease expired on a node that stopped), checks that its text has
// words to index, marks it trained (or failed with the reason) in one transaction with the agent's
// status and characters, then adds it to this node's index. Any node sharing the database may
// run workers; claims are conditional updates, so one source is trained once. When no source is
// left to claim, a worker stores the index of each agent whose knowledge changed (a source
// trained or removed) and has nothing pending as its persisted form (KnowledgeIndex::persist), so
// that any node loads it in one read.
// Thread-safe: sources_queued() and source_removed() may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "store/services.h"
#include "knowledge/knowledge_index.h"
#include "knowledge/source_listener.h"
#include "workers/source_embedder.h"

namespace parley {

struct TrainerOptions {
  size_t threads = 2;
  // Waits this long before claiming a source and again before finishing it, so tests can watch
  // pending → processing → trained. 0 in production.
  int64_t delay_ms = 0;
  // Puts sources left processing back to pending at start (one node: nothing else can be
  // training them). With several nodes, leases expire instead.
  bool requeue_on_start = true;
  // A claim lasts this long; the node renews it every third of it while it trains the source
  // (a heartbeat), so only the claim of a node that died runs out.
  int64_t lease_ms = 30'000;
  // What embedding one source's chunks may take at most.
  int64_t embedding_budget_ms = 60'000;
  int64_t poll_ms = 1000;  // how often idle workers look for rows other processes added
};

class Trainer final : public SourceListener {
 public:
  // `embedder`: embeds the chunks of agents with `llm.embeddingModel` before their sources are
  // recorded trained (hybrid retrieval); null: no embeddings.
  Trainer(Services services, KnowledgeIndex& index, TrainerOptions options,
          const SourceEmbedder* embedder = nullptr);
  ~Trainer() override;  // stops the workers; a source being trained stays processing (requeued)
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  void start();
  void sources_queued() override;
  void source_removed(std::string_view agent_id, std::string_view source_id, int64_t version) override;

 private:
  void run();
  // Sleeps up to `ms`; false when stopping.
  bool pause(int64_t ms);
  void train(const SourceRecord& source);
  // Stores the agent's index form when none of its sources waits for training.
  void persist_when_idle(const std::string& agent_id);
  // Takes an agent whose form is due (a source trained or removed), if any.
  std::optional<std::string> take_due_form();
  // Renews the claims of the sources this node is training until stopped.
  void renew_leases();

  Services services_;
  KnowledgeIndex& index_;
  TrainerOptions options_;
  const SourceEmbedder* embedder_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::set<std::string> training_;  // sources claimed by this node's workers
  uint64_t queued_ = 0;  // moves on every sources_queued()
  // Agents whose knowledge changed: their forms are stored when no source is left to claim.
  std::set<std::string> forms_due_;
  std::vector<std::thread> threads_;
};

// Why a source cannot be trained, or nothing when it can: its text must contain a word.
std::optional<std::string> training_problem(const SourceRecord& source);

}  // namespace parley
