// The persisted form of an agent's index: the whole AgentIndex as bytes (its vocabulary, both
// BM25 collections with their compact postings, its chunks with their sentences' terms, its
// sources and Q&A pairs), written at training time and read back in one pass, with no text
// analysed again. An index read from its form answers every question exactly as the index that
// wrote it.
//
// Layout: "PKIF", the format version (u32), the payload's size (u64), the payload's SHA-256
// (32 bytes), the payload. The payload opens with the analysis it was built for (language and
// synonyms). A form of another format version, of another analysis, with a wrong checksum or
// that does not read as an index is refused: the caller rebuilds the index from the agent's
// sources instead (never a wrong answer).
// Thread-safe: pure functions (index_form reads the index; the caller holds its lock).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "knowledge/agent_index.h"
#include "model/agent_settings.h"

namespace parley {

// Moves whenever the layout changes: forms of other versions are rebuilt from sources.
inline constexpr uint32_t kIndexFormVersion = 1;

std::string index_form(const AgentIndex& index);

// The index the form holds, when it is a readable form of this version built for `settings`'
// analysis; nothing otherwise.
std::optional<AgentIndex> index_from_form(std::string_view form, const KnowledgeSettings& settings);

}  // namespace parley
