// The workspace import worker: one thread per node that imports queued workspace pages one at a
// time (domain/workspace_import.h), so one node keeps to Notion's pace of about three requests a
// second per integration and waits out its 429s. Work is rows of workspace_pages: any node
// sharing the database may run a worker; claims are conditional updates with a lease, so a page
// is imported once, and a page whose node stopped is taken over when its lease ends.
// Thread-safe: pages_queued() may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "domain/workspace.h"
#include "knowledge/source_listener.h"
#include "store/services.h"

namespace parley {

struct WorkspaceImporterOptions {
  // Puts pages left running back in the queue at start (one node: nothing else can be reading
  // them). With several nodes, leases expire instead.
  bool requeue_on_start = true;
  int64_t lease_ms = 120'000;  // renewed while the page is read
  int64_t poll_ms = 1000;      // how often an idle worker looks for rows other processes queued
};

class WorkspaceImporter {
 public:
  // `workspace` and `listener` (the trainer) must outlive the importer.
  WorkspaceImporter(Services services, WorkspaceServices& workspace, SourceListener* listener,
                    WorkspaceImporterOptions options = {});
  ~WorkspaceImporter();  // stops the worker; a page being read stays running until its lease ends
  WorkspaceImporter(const WorkspaceImporter&) = delete;
  WorkspaceImporter& operator=(const WorkspaceImporter&) = delete;

  void start();
  void pages_queued();

 private:
  void run();
  bool pause(int64_t ms);  // false when stopping

  Services services_;
  WorkspaceServices& workspace_;
  SourceListener* listener_;
  WorkspaceImporterOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  uint64_t queued_ = 0;
  std::thread thread_;
};

}  // namespace parley
