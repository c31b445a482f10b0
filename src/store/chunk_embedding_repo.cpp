#include "store/chunk_embedding_repo.h"

#include <bit>
#include <cstring>
#include <optional>

namespace parley {

static_assert(std::endian::native == std::endian::little,
              "vectors are stored as little-endian float32");
static_assert(sizeof(float) == 4);

namespace {
constexpr std::string_view kColumns = "e.source_id, e.chunk, e.dimensions, e.vector, e.text_hash";

// Appends the row's vector when its BLOB is readable.
void append_row(const Row& r, std::vector<ChunkVector>& out) {
  auto values = vector_of_bytes(r.blob_view(3), r.int64(2));
  if (!values || r.int64(1) < 0) return;
  out.push_back({r.text(0), static_cast<uint32_t>(r.int64(1)), r.text(4), std::move(*values)});
}
}  // namespace

std::string vector_bytes(const std::vector<float>& values) {
  std::string out(values.size() * sizeof(float), '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::optional<std::vector<float>> vector_of_bytes(std::string_view bytes, int64_t dimensions) {
  if (dimensions <= 0 || bytes.size() != static_cast<size_t>(dimensions) * sizeof(float))
    return std::nullopt;
  std::vector<float> out(static_cast<size_t>(dimensions));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

Result<void> ChunkEmbeddingRepo::replace_source(Connection& c, std::string_view agent_id,
                                                std::string_view source_id, std::string_view model,
                                                const std::vector<ChunkVector>& vectors,
                                                int64_t now) {
  PARLEY_TRY(c.execute("DELETE FROM chunk_embeddings WHERE source_id = $1", {source_id}));
  for (const auto& v : vectors) {
    std::string bytes = vector_bytes(v.values);
    PARLEY_TRY(c.execute(
        "INSERT INTO chunk_embeddings (source_id, chunk, agent_id, model, dimensions, vector,"
        " text_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        {source_id, int64_t{v.chunk}, agent_id, model, static_cast<int64_t>(v.values.size()),
         DbBlob{bytes}, std::string_view(v.text_hash), now}));
  }
  return {};
}

Result<std::vector<ChunkVector>> ChunkEmbeddingRepo::list_source(Connection& c,
                                                                 std::string_view source_id,
                                                                 std::string_view model) {
  std::vector<ChunkVector> out;
  PARLEY_TRY(c.query("SELECT " + std::string(kColumns) +
                         " FROM chunk_embeddings e WHERE e.source_id = $1 AND e.model = $2"
                         " ORDER BY e.chunk",
                     {source_id, model}, [&](const Row& r) { append_row(r, out); }));
  return out;
}

Result<std::vector<ChunkVector>> ChunkEmbeddingRepo::list_trained(Connection& c,
                                                                  std::string_view agent_id,
                                                                  std::string_view model) {
  std::vector<ChunkVector> out;
  PARLEY_TRY(c.query("SELECT " + std::string(kColumns) +
                         " FROM chunk_embeddings e JOIN sources s ON s.id = e.source_id"
                         " WHERE e.agent_id = $1 AND e.model = $2 AND s.status = 'trained'"
                         " ORDER BY e.source_id, e.chunk",
                     {agent_id, model}, [&](const Row& r) { append_row(r, out); }));
  return out;
}

Result<std::vector<std::string>> ChunkEmbeddingRepo::sources_without(Connection& c,
                                                                     std::string_view agent_id,
                                                                     std::string_view model,
                                                                     int64_t limit) {
  std::vector<std::string> out;
  PARLEY_TRY(
      c.query("SELECT s.id FROM sources s WHERE s.agent_id = $1 AND s.status = 'trained'"
              " AND s.type <> 'qa' AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e"
              " WHERE e.source_id = s.id AND e.model = $2) ORDER BY s.created_at, s.seq LIMIT $3",
              {agent_id, model, limit}, [&](const Row& r) { out.push_back(r.text(0)); }));
  return out;
}

Result<int64_t> ChunkEmbeddingRepo::count_source(Connection& c, std::string_view source_id) {
  PARLEY_ASSIGN_OR_RETURN(
      auto n,
      c.query_int("SELECT COUNT(*) FROM chunk_embeddings WHERE source_id = $1", {source_id}));
  return n.value_or(0);
}

}  // namespace parley
