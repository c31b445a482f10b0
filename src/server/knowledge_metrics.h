// The knowledge's lines of /metrics: the memory budget, what the loaded indexes and embedding
// vectors hold, and how indexes came into memory (from a persisted form or rebuilt from sources)
// and left it.
// Thread-safe: a pure function of the figures it is given.
#pragma once

#include <string>

#include "knowledge/knowledge_index.h"

namespace parley {

void write_knowledge_metrics(const KnowledgeFigures& figures, const CacheFigures& vectors,
                             std::string& out);

}  // namespace parley
