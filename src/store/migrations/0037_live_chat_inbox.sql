-- The console's live-chat inbox reads an agent's conversations whose live chat is requested or
-- active, four times a second per open inbox (views/change_feed.h): an index on the status keeps
-- that read to those rows instead of all the agent's conversations.
CREATE INDEX conversations_agent_live_chat_status ON conversations(agent_id, live_chat_status);
