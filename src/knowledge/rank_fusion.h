// Reciprocal-rank fusion (Cormack, Clarke and Büttcher, 2009) of the rankings of an agent's
// chunks that retrieval produces: BM25's and the embedding vectors'. Each chunk scores the sum,
// over the rankings that hold it, of 1 / (kRrfConstant + rank), rank counted from 1. Only ranks
// count, never the scores, so rankings on unrelated scales combine without tuning. A chunk is
// named by its source and its ordinal (RetrievedChunk::source_id, ::chunk). Pure; thread-safe.
#pragma once

#include <initializer_list>
#include <vector>

#include "knowledge/retriever.h"

namespace parley {

// The constant of the original paper: it damps the weight of the very first ranks, so that a
// chunk ranked well by both lists beats one ranked first by a single list.
inline constexpr double kRrfConstant = 60.0;

// Up to `k` chunks of the rankings (each best first), best fused score first; ties keep the
// order in which chunks first appear (earlier ranking, then better rank). A chunk's fields come
// from the first ranking that holds it, its `score` is the fused score. A chunk listed twice in
// one ranking counts once, at its better rank. Null rankings are skipped.
std::vector<RetrievedChunk> fuse_rankings(
    std::initializer_list<const std::vector<RetrievedChunk>*> rankings, size_t k,
    double constant = kRrfConstant);

}  // namespace parley
