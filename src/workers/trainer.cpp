#include "workers/trainer.h"

#include <chrono>

#include "core/log.h"
#include "domain/sources.h"
#include "model/agent_settings.h"
#include "store/agent_repo.h"
#include "text/tokenizer.h"

namespace parley {

std::optional<std::string> training_problem(const SourceRecord& source) {
  if (source.type == "qa") {
    if (!has_token(source.question.value_or(""))) return "The question has no words to match.";
    return std::nullopt;
  }
  if (!has_token(source.content.value_or(""))) return "The content has no words to index.";
  return std::nullopt;
}

Trainer::Trainer(Services services, KnowledgeIndex& index, TrainerOptions options,
                 const SourceEmbedder* embedder)
    : services_(services), index_(index), options_(options), embedder_(embedder) {}

Trainer::~Trainer() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void Trainer::start() {
  if (options_.requeue_on_start) {
    auto n = requeue_unfinished(services_);
    if (!n.ok()) log_error("requeue of unfinished sources failed", {{"error", std::string_view(n.error().message)}});
    else if (*n > 0) log_info("resuming unfinished training", {{"sources", *n}});
  }
  for (size_t i = 0; i < std::max<size_t>(options_.threads, 1); ++i) threads_.emplace_back([this] { run(); });
  threads_.emplace_back([this] { renew_leases(); });
}

void Trainer::renew_leases() {
  while (pause(options_.lease_ms / 3)) {
    std::vector<std::string> ids;
    {
      std::lock_guard lock(mu_);
      ids.assign(training_.begin(), training_.end());
    }
    if (ids.empty()) continue;
    int64_t until = services_.clock.now_ms() + options_.lease_ms + 2 * options_.delay_ms;
    auto renewed = services_.db.write([&](Connection& c) -> Result<void> {
      for (const auto& id : ids) PARLEY_TRY(SourceRepo::renew_lease(c, id, until));
      return {};
    });
    if (!renewed.ok()) log_warn("renewing training leases failed", {{"error", std::string_view(renewed.error().message)}});
  }
}

void Trainer::sources_queued() {
  {
    std::lock_guard lock(mu_);
    ++queued_;
  }
  cv_.notify_all();
}

void Trainer::source_removed(std::string_view agent_id, std::string_view source_id, int64_t version) {
  index_.source_removed(agent_id, source_id, version);
  if (embedder_ != nullptr) embedder_->removed(agent_id, source_id, version);
  {
    std::lock_guard lock(mu_);
    forms_due_.insert(std::string(agent_id));
  }
  cv_.notify_one();
}

std::optional<std::string> Trainer::take_due_form() {
  std::lock_guard lock(mu_);
  if (forms_due_.empty()) return std::nullopt;
  std::string agent_id = *forms_due_.begin();
  forms_due_.erase(forms_due_.begin());
  return agent_id;
}

void Trainer::persist_when_idle(const std::string& agent_id) {
  auto reader = services_.db.read();
  if (!reader.ok()) return;
  auto counts = SourceRepo::counts(*reader, agent_id);
  if (!counts.ok() || counts->pending + counts->processing > 0) return;
  auto agent = AgentRepo::find_any(*reader, agent_id);
  if (!agent.ok() || !*agent) return;
  index_.persist(agent_id, parse_agent_settings((*agent)->settings).knowledge);
}

bool Trainer::pause(int64_t ms) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stop_; });
  return !stop_;
}

void Trainer::run() {
  uint64_t seen = 0;
  while (true) {
    if (options_.delay_ms > 0 && !pause(options_.delay_ms)) return;
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      seen = queued_;
    }
    auto claimed = claim_next_source(services_, options_.lease_ms + 2 * options_.delay_ms);
    if (!claimed.ok()) {
      log_error("claiming a source failed", {{"error", std::string_view(claimed.error().message)}});
      if (!pause(options_.poll_ms)) return;
      continue;
    }
    if (!*claimed) {
      // Nothing to train: store the forms of the agents whose knowledge changed meanwhile.
      if (auto due = take_due_form()) {
        persist_when_idle(*due);
        continue;
      }
      std::unique_lock lock(mu_);
      cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_ms),
                   [&] { return stop_ || queued_ != seen || !forms_due_.empty(); });
      if (stop_) return;
      continue;
    }
    {
      std::lock_guard lock(mu_);
      training_.insert((*claimed)->id);
    }
    bool go_on = options_.delay_ms <= 0 || pause(options_.delay_ms);
    if (go_on) train(**claimed);
    std::lock_guard lock(mu_);
    training_.erase((*claimed)->id);
    if (!go_on) return;
  }
}

void Trainer::train(const SourceRecord& source) {
  auto problem = training_problem(source);
  // Vectors are stored before the training is recorded: the knowledge version it moves on is
  // what tells vector caches to load them. The claim is renewed meanwhile.
  EmbeddedSource embedded;
  if (!problem && embedder_ != nullptr)
    embedded = embedder_->embed(source, services_.clock.now_ms() + options_.embedding_budget_ms);
  auto finished = finish_training(services_, source, problem);
  if (!finished.ok()) {
    log_error("finishing training failed",
              {{"sourceId", std::string_view(source.id)}, {"error", std::string_view(finished.error().message)}});
    return;
  }
  if (!finished->applied) return;
  if (problem) {
    log_info("source failed", {{"sourceId", std::string_view(source.id)}, {"error", std::string_view(*problem)}});
    return;
  }
  index_.source_trained(finished->source, finished->version);
  if (embedder_ != nullptr) embedder_->trained(finished->source, embedded, finished->version);
  std::lock_guard lock(mu_);
  forms_due_.insert(finished->source.agent_id);
}

}  // namespace parley
