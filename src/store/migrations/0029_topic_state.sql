-- The running state of each conversation's topic analysis, so that a turn counts only the
-- messages added since the last one instead of re-reading the whole conversation.
CREATE TABLE topic_state (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  analysed_seq    INTEGER NOT NULL,  -- messages up to this seq are counted
  words           INTEGER NOT NULL,  -- words of visitor messages seen (positions used)
  positive        INTEGER NOT NULL,
  negative        INTEGER NOT NULL,
  any_user        INTEGER NOT NULL
);

CREATE TABLE topic_words (
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  word            TEXT NOT NULL,
  count           INTEGER NOT NULL,
  first_position  INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, word)
);
CREATE INDEX topic_words_rank ON topic_words(conversation_id, count DESC, first_position);
