-- Embedding vectors of the chunks of trained text sources, for the hybrid retrieval of agents
-- with `llm.embeddingModel` (docs/decisions/knowledge_embeddings.md). One row per chunk of a
-- source, keyed as the BM25 index numbers chunks (the source, the chunk's ordinal in
-- chunk_text's order), so that both rankings name the same chunk. A source's rows go with it.
CREATE TABLE chunk_embeddings (
  source_id   TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  chunk       INTEGER NOT NULL,       -- ordinal of the chunk within its source
  agent_id    TEXT NOT NULL,          -- the source's agent, to load an agent's vectors at once
  model       TEXT NOT NULL,          -- the embedding model that computed the vector
  dimensions  INTEGER NOT NULL,
  vector      BLOB NOT NULL,          -- `dimensions` float32 values, little-endian
  text_hash   TEXT NOT NULL,          -- SHA-256 (hex) of the text that was embedded
  created_at  BIGINT NOT NULL,
  PRIMARY KEY (source_id, chunk)
);
CREATE INDEX chunk_embeddings_agent_model ON chunk_embeddings(agent_id, model);
