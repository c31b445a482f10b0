-- Website crawls (docs/decisions/crawler.md). A crawl or a refresh is a job row that one worker
-- at a time claims with a lease (as training claims a source); its frontier, every address it
-- found with its state, lives in crawl_pages and is read a batch at a time, so a crawl of any size
-- resumes after a restart, on any node, with flat memory.
CREATE TABLE crawls (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL,
  agent_id      TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind          TEXT NOT NULL CHECK (kind IN ('crawl', 'refresh')),
  url           TEXT,                   -- as asked (normalised); NULL: a refresh of every website
  scope_url     TEXT,                   -- the start after its redirects: the scope's base
  max_pages     BIGINT NOT NULL,
  max_depth     BIGINT NOT NULL,
  include_paths TEXT NOT NULL,          -- JSON array of path patterns
  exclude_paths TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'cancelled', 'failed')),
  seeded        INTEGER NOT NULL DEFAULT 0,  -- 1 once the start (and sitemaps) are in the frontier
  found         BIGINT NOT NULL DEFAULT 0,   -- frontier rows; also the next row's seq
  fetched       BIGINT NOT NULL DEFAULT 0,
  skipped       BIGINT NOT NULL DEFAULT 0,
  failed        BIGINT NOT NULL DEFAULT 0,
  unchanged     BIGINT NOT NULL DEFAULT 0,
  removed       BIGINT NOT NULL DEFAULT 0,
  characters    BIGINT NOT NULL DEFAULT 0,   -- of the pages this job added or replaced
  error_code    TEXT,
  error_message TEXT,
  lease_owner   TEXT,                   -- the claim (random per claim) whose writes count
  lease_until   BIGINT,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL,
  started_at    BIGINT,
  finished_at   BIGINT
);
CREATE INDEX crawls_agent_order ON crawls(agent_id, created_at);
CREATE INDEX crawls_status ON crawls(status, created_at);

-- The frontier: each normalised address of a job once, in the order found (breadth first: depth,
-- then seq), with what became of it.
CREATE TABLE crawl_pages (
  crawl_id      TEXT NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
  url           TEXT NOT NULL,
  seq           BIGINT NOT NULL,
  depth         BIGINT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('queued', 'fetched', 'unchanged', 'skipped', 'failed',
                                               'removed')),
  reason        TEXT,
  source_id     TEXT,                   -- the website source it became
  from_sitemap  INTEGER NOT NULL DEFAULT 0,
  etag          TEXT,
  last_modified TEXT,
  content_hash  TEXT,
  PRIMARY KEY (crawl_id, url)
);
CREATE INDEX crawl_pages_queue ON crawl_pages(crawl_id, state, depth, seq);
CREATE INDEX crawl_pages_hash ON crawl_pages(crawl_id, content_hash);

-- What a refresh needs of each website source: how it was found (the crawl whose scope and
-- patterns it belongs to, its depth, whether the site's sitemap listed it) and how to revalidate
-- it (ETag, Last-Modified, the hash of its text), with the 404/410 answers in a row.
CREATE TABLE website_pages (
  source_id     TEXT PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  agent_id      TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  url           TEXT NOT NULL,
  crawl_id      TEXT NOT NULL,
  depth         BIGINT NOT NULL,
  from_sitemap  INTEGER NOT NULL DEFAULT 0,
  etag          TEXT,
  last_modified TEXT,
  content_hash  TEXT,
  misses        BIGINT NOT NULL DEFAULT 0,
  fetched_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX website_pages_agent_url ON website_pages(agent_id, url);
CREATE INDEX website_pages_agent_hash ON website_pages(agent_id, content_hash);

-- Template text kept once per site: the hash of a block (extract/document.h block_hash) and the
-- page that keeps it; the site's other pages leave that block out of their text.
CREATE TABLE site_blocks (
  agent_id      TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  site          TEXT NOT NULL,          -- scheme://host[:port]
  hash          BIGINT NOT NULL,
  source_id     TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  PRIMARY KEY (agent_id, site, hash)
);
CREATE INDEX site_blocks_source ON site_blocks(source_id);

-- The plan's training characters are checked before each page a crawl adds (the sum over the
-- agent's sources that are not failed): read from this index alone, without the sources' text.
CREATE INDEX sources_agent_status_characters ON sources(agent_id, status, characters);
