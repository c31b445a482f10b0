-- Widget identity: a website signs its visitor's user id with the agent's identity secret
-- (HMAC-SHA256), and a conversation whose signature holds is bound to the agent's contact with
-- that external id (conversations.contact_id, migration 0041).

-- The agent's identity secret, sealed with the server's secret key (core/secret_box.h, bound to
-- the agent's id; never stored in clear), and when it was made. NULL: none yet.
ALTER TABLE agents ADD COLUMN identity_secret TEXT;
ALTER TABLE agents ADD COLUMN identity_secret_at BIGINT;

-- What the widget said of the visitor: 'verified' (bound to contact_id), 'invalid_signature',
-- 'missing_signature', 'no_secret' (the agent has none), 'contact_limit_reached' (a valid
-- signature, but the plan's contacts were all taken), NULL while no identity was given
-- (anonymous). The user id the page claimed, verified or not.
ALTER TABLE conversations ADD COLUMN identity_status TEXT;
ALTER TABLE conversations ADD COLUMN identity_external_id TEXT;
