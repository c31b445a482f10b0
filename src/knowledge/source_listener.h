// What a node that serves retrieval wants to hear about source changes made through the domain
// functions: new work for the trainer, and a source leaving an agent's knowledge (its index drops
// it at once). The admin CLI passes none; the server's trainer polls for rows other processes add.
// Implementations are thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

namespace parley {

class SourceListener {
 public:
  virtual ~SourceListener() = default;
  virtual void sources_queued() = 0;
  virtual void source_removed(std::string_view agent_id, std::string_view source_id, int64_t version) = 0;
};

}  // namespace parley
