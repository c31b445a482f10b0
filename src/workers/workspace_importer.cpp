#include "workers/workspace_importer.h"

#include <chrono>

#include "core/log.h"
#include "domain/workspace_import.h"

namespace parley {

WorkspaceImporter::WorkspaceImporter(Services services, WorkspaceServices& workspace,
                                     SourceListener* listener, WorkspaceImporterOptions options)
    : services_(services), workspace_(workspace), listener_(listener), options_(options) {}

WorkspaceImporter::~WorkspaceImporter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WorkspaceImporter::start() {
  if (options_.requeue_on_start) {
    auto n = services_.db.write([](Connection& c) -> Result<void> {
      PARLEY_TRY(WorkspaceRepo::requeue_running(c));
      return {};
    });
    if (!n.ok())
      log_error("requeue of unfinished workspace pages failed",
                {{"error", std::string_view(n.error().message)}});
  }
  thread_ = std::thread([this] { run(); });
}

void WorkspaceImporter::pages_queued() {
  {
    std::lock_guard lock(mu_);
    ++queued_;
  }
  cv_.notify_all();
}

bool WorkspaceImporter::pause(int64_t ms) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stop_; });
  return !stop_;
}

void WorkspaceImporter::run() {
  NotionWait wait = [this](int64_t ms) { return pause(ms); };
  while (true) {
    uint64_t seen = 0;
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      seen = queued_;
    }
    auto step = import_next_page(services_, workspace_, listener_, wait, options_.lease_ms);
    if (!step.ok()) {
      log_error("importing a workspace page failed",
                {{"error", std::string_view(step.error().message)}});
      if (!pause(options_.poll_ms)) return;
      continue;
    }
    if (step->claimed) {
      const auto& p = step->page;
      log_info("workspace page imported",
               {{"agentId", std::string_view(p.agent_id)},
                {"pageId", std::string_view(p.page_id)},
                {"outcome", std::string_view(p.outcome ? *p.outcome : p.state)}});
      continue;
    }
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_ms),
                 [&] { return stop_ || queued_ != seen; });
    if (stop_) return;
  }
}

}  // namespace parley
