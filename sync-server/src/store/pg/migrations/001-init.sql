-- 001: the whole schema of the PostgreSQL store, the state SQLite's migrations
-- 001–005 reached, so both engines answer the same. Forward-only: never edit a shipped
-- migration, add the next one.
-- - Same tables, columns (in the same order: `SELECT *` answers alike) and indexes as SQLite.
-- - Text compares and sorts by bytes, as SQLite's BINARY: every text column is COLLATE "C".
-- - Counters and flags stay integer (0/1); seq and pk are bigint (read as JS numbers).
-- - `seq` comes from crux_next_seq() (store/pg/seq.ts): a transaction stamping change numbers
--   holds one advisory lock until it ends, so commit order is seq order and a pull never
--   skips a row (docs/POSTGRES.md).
-- - Full-text search: each searched table has a *_fts twin (pk → tsvector of the words as
--   shared/rules/search-words.ts cuts and folds them, written by the repositories), with a
--   GIN index; queries are prefix tsqueries of the same folded words (store/pg/search.ts).

CREATE TABLE users (
  uid                    text COLLATE "C" PRIMARY KEY,
  display_name           text COLLATE "C",
  email                  text COLLATE "C",
  points                 integer NOT NULL DEFAULT 0,
  receive_weekly_summary integer NOT NULL DEFAULT 1,
  created_at             text COLLATE "C" NOT NULL,
  seq                    bigint NOT NULL DEFAULT 0,
  persuasion_points      integer NOT NULL DEFAULT 0
);
CREATE INDEX users_points ON users (points DESC, uid) WHERE points > 0;

CREATE TABLE topics (
  pk              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id              text COLLATE "C" NOT NULL UNIQUE,
  title           text COLLATE "C" NOT NULL,
  category        text COLLATE "C" NOT NULL,
  creator_uid     text COLLATE "C" NOT NULL REFERENCES users (uid),
  created_at      text COLLATE "C" NOT NULL,
  score           integer NOT NULL DEFAULT 0,
  responses_count integer NOT NULL DEFAULT 0,
  hot             double precision NOT NULL,
  deleted         integer NOT NULL DEFAULT 0,
  seq             bigint NOT NULL,
  stance_agree    integer NOT NULL DEFAULT 0,
  stance_disagree integer NOT NULL DEFAULT 0,
  stance_unsure   integer NOT NULL DEFAULT 0,
  minds_changed   integer NOT NULL DEFAULT 0
);
CREATE INDEX topics_hot ON topics (hot DESC, id) WHERE deleted = 0;
CREATE INDEX topics_new ON topics (created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_top ON topics (score DESC, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_category_hot ON topics (category, hot DESC, id) WHERE deleted = 0;
CREATE INDEX topics_category_new ON topics (category, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_category_top ON topics (category, score DESC, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_seq ON topics (seq, id);
CREATE INDEX topics_creator ON topics (creator_uid);

CREATE TABLE responses (
  pk                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id                 text COLLATE "C" NOT NULL UNIQUE,
  topic_id           text COLLATE "C" NOT NULL REFERENCES topics (id),
  parent_response_id text COLLATE "C" REFERENCES responses (id),
  quoted_response_id text COLLATE "C",
  type               text COLLATE "C" NOT NULL CHECK (type IN ('for', 'against', 'neutral')),
  content            text COLLATE "C" NOT NULL,
  creator_uid        text COLLATE "C" NOT NULL REFERENCES users (uid),
  created_at         text COLLATE "C" NOT NULL,
  updated_at         text COLLATE "C" NOT NULL,
  score              integer NOT NULL DEFAULT 0,
  comment_count      integer NOT NULL DEFAULT 0,
  deleted            integer NOT NULL DEFAULT 0,
  seq                bigint NOT NULL,
  delta_count        integer NOT NULL DEFAULT 0,
  upvotes_agree      integer NOT NULL DEFAULT 0,
  upvotes_disagree   integer NOT NULL DEFAULT 0
);
CREATE INDEX responses_topic_root ON responses (topic_id, created_at, id) WHERE parent_response_id IS NULL AND deleted = 0;
CREATE INDEX responses_parent ON responses (parent_response_id, created_at, id) WHERE deleted = 0;
CREATE INDEX responses_topic ON responses (topic_id) WHERE deleted = 0;
CREATE INDEX responses_topic_seq ON responses (topic_id, seq, id);
CREATE INDEX responses_seq ON responses (seq, id);
CREATE INDEX responses_creator ON responses (creator_uid);

CREATE TABLE sources (
  pk          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          text COLLATE "C" NOT NULL UNIQUE,
  url         text COLLATE "C" NOT NULL UNIQUE,
  name        text COLLATE "C",
  description text COLLATE "C",
  created_at  text COLLATE "C" NOT NULL
);

CREATE TABLE response_sources (
  response_id text COLLATE "C" NOT NULL REFERENCES responses (id),
  position    integer NOT NULL,
  source_id   text COLLATE "C" NOT NULL REFERENCES sources (id),
  name        text COLLATE "C",
  description text COLLATE "C",
  PRIMARY KEY (response_id, position)
);
CREATE INDEX response_sources_source ON response_sources (source_id);

CREATE TABLE votes (
  voter_uid          text COLLATE "C" NOT NULL REFERENCES users (uid),
  target_type        text COLLATE "C" NOT NULL CHECK (target_type IN ('topic', 'response')),
  target_id          text COLLATE "C" NOT NULL,
  target_creator_uid text COLLATE "C" NOT NULL,
  topic_id           text COLLATE "C" NOT NULL,
  created_at         text COLLATE "C" NOT NULL,
  updated_at         text COLLATE "C" NOT NULL,
  deleted            integer NOT NULL DEFAULT 0,
  seq                bigint NOT NULL,
  stance             text COLLATE "C" CHECK (stance IN ('agree', 'disagree', 'unsure')),
  -- SQLite's rowid: the order rows were first written, which some loops stamp seqs in (never selected).
  pk                 bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  PRIMARY KEY (voter_uid, target_type, target_id)
);
CREATE INDEX votes_target ON votes (target_type, target_id) WHERE deleted = 0;
CREATE INDEX votes_creator ON votes (target_creator_uid) WHERE deleted = 0;
CREATE INDEX votes_topic ON votes (topic_id);
CREATE INDEX votes_voter_seq ON votes (voter_uid, seq);

CREATE TABLE notifications (
  id               text COLLATE "C" PRIMARY KEY,
  recipient_uid    text COLLATE "C" NOT NULL REFERENCES users (uid),
  type             text COLLATE "C" NOT NULL CHECK (type IN ('reply_to_topic', 'reply_to_comment')),
  actor_uid        text COLLATE "C" NOT NULL REFERENCES users (uid),
  target_summary   text COLLATE "C" NOT NULL,
  target_id        text COLLATE "C" NOT NULL,
  response_id      text COLLATE "C" NOT NULL,
  created_at       text COLLATE "C" NOT NULL,
  is_read          integer NOT NULL DEFAULT 0,
  deleted          integer NOT NULL DEFAULT 0,
  seq              bigint NOT NULL,
  response_deleted integer NOT NULL DEFAULT 0,
  -- SQLite's rowid (see votes.pk).
  pk               bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE INDEX notifications_recipient ON notifications (recipient_uid, created_at DESC) WHERE deleted = 0;
CREATE INDEX notifications_recipient_seq ON notifications (recipient_uid, seq);
CREATE INDEX notifications_topic ON notifications (target_id);
CREATE INDEX notifications_response ON notifications (response_id) WHERE deleted = 0;

-- `tokens`: how many words the text has (for ranking, as FTS5 keeps each row's size).
CREATE TABLE topics_fts (
  pk     bigint PRIMARY KEY REFERENCES topics (pk),
  words  tsvector NOT NULL,
  tokens integer NOT NULL
);
CREATE INDEX topics_fts_words ON topics_fts USING gin (words);
CREATE TABLE responses_fts (
  pk     bigint PRIMARY KEY REFERENCES responses (pk),
  words  tsvector NOT NULL,
  tokens integer NOT NULL
);
CREATE INDEX responses_fts_words ON responses_fts USING gin (words);
CREATE TABLE sources_fts (
  pk     bigint PRIMARY KEY REFERENCES sources (pk),
  words  tsvector NOT NULL,
  tokens integer NOT NULL
);
CREATE INDEX sources_fts_words ON sources_fts USING gin (words);
-- Rows and words of each search table, kept as FTS5 keeps them, for BM25's document frequency
-- and average length (store/pg/search.ts); written by the (one at a time) writers.
CREATE TABLE crux_fts_stats (
  tbl    text PRIMARY KEY,
  rows   bigint NOT NULL,
  tokens bigint NOT NULL
);
INSERT INTO crux_fts_stats (tbl, rows, tokens) VALUES ('topics_fts', 0, 0), ('responses_fts', 0, 0), ('sources_fts', 0, 0);

CREATE TABLE mail_runs (
  id           text COLLATE "C" PRIMARY KEY,
  kind         text COLLATE "C" NOT NULL CHECK (kind IN ('scheduled', 'manual')),
  period_start text COLLATE "C" NOT NULL,
  period_end   text COLLATE "C" NOT NULL,
  status       text COLLATE "C" NOT NULL CHECK (status IN ('running', 'done')),
  created_at   text COLLATE "C" NOT NULL,
  finished_at  text COLLATE "C",
  sent         integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  skipped      integer NOT NULL DEFAULT 0
);
CREATE INDEX mail_runs_status ON mail_runs (status, created_at);
CREATE INDEX mail_runs_end ON mail_runs (period_end);

CREATE TABLE mail_sends (
  run_id     text COLLATE "C" NOT NULL REFERENCES mail_runs (id),
  uid        text COLLATE "C" NOT NULL,
  email      text COLLATE "C" NOT NULL,
  status     text COLLATE "C" NOT NULL CHECK (status IN ('sent', 'failed')),
  attempts   integer NOT NULL,
  message_id text COLLATE "C",
  error      text COLLATE "C",
  at         text COLLATE "C" NOT NULL,
  PRIMARY KEY (run_id, uid)
);

CREATE TABLE mail_points (
  run_id text COLLATE "C" NOT NULL REFERENCES mail_runs (id),
  uid    text COLLATE "C" NOT NULL,
  points integer NOT NULL,
  rank   integer NOT NULL,
  PRIMARY KEY (run_id, uid)
);
CREATE INDEX mail_points_uid ON mail_points (uid);

CREATE TABLE mail_state (
  key   text COLLATE "C" PRIMARY KEY,
  value text COLLATE "C" NOT NULL
);

CREATE TABLE stances (
  uid          text COLLATE "C" NOT NULL REFERENCES users (uid),
  topic_id     text COLLATE "C" NOT NULL REFERENCES topics (id),
  stance       text COLLATE "C" NOT NULL CHECK (stance IN ('agree', 'disagree', 'unsure')),
  first_stance text COLLATE "C" NOT NULL CHECK (first_stance IN ('agree', 'disagree', 'unsure')),
  history      text COLLATE "C" NOT NULL,
  credits      text COLLATE "C" NOT NULL DEFAULT '[]',
  updated_at   text COLLATE "C" NOT NULL,
  seq          bigint NOT NULL,
  PRIMARY KEY (uid, topic_id)
);
CREATE INDEX stances_owner_seq ON stances (uid, seq, topic_id);
CREATE INDEX stances_topic ON stances (topic_id, stance, first_stance);

CREATE TABLE deltas (
  uid         text COLLATE "C" NOT NULL REFERENCES users (uid),
  topic_id    text COLLATE "C" NOT NULL,
  change_no   integer NOT NULL,
  response_id text COLLATE "C" NOT NULL REFERENCES responses (id),
  author_uid  text COLLATE "C" NOT NULL,
  created_at  text COLLATE "C" NOT NULL,
  PRIMARY KEY (uid, topic_id, change_no, response_id)
);
CREATE INDEX deltas_response ON deltas (response_id);
CREATE INDEX deltas_author ON deltas (author_uid, response_id);
