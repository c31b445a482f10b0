-- Team members of an account (the console's users) and the tokens they authenticate with.
-- An email identifies one member across the whole server, because login asks only for email
-- and password.
CREATE TABLE members (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email          TEXT NOT NULL UNIQUE,   -- lower case
  name           TEXT,                   -- first name, shown as a live-chat reply's author
  role           TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
  password_hash  TEXT,                   -- Argon2id encoded string; NULL: token only, no login
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL
);
CREATE INDEX members_account ON members(account_id, created_at);

-- Session tokens (cst_, from login) and member tokens (cmt_, from the admin CLI). Only the
-- SHA-256 fingerprint of a token is stored.
CREATE TABLE member_tokens (
  fingerprint  TEXT PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('session', 'member')),
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT                    -- NULL: until the member is removed
);
CREATE INDEX member_tokens_member ON member_tokens(member_id);
