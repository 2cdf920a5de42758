// A sync pull of topics as SQLite writes it (json-changes.ts): topicDoc (sync/collections/topics.ts)
// in SQL, the same text byte for byte (tests/sync-server/sync-pull-topics-json.test.ts compares them).
// A page of 200 topics was read into row objects of 22 columns, mapped and stringified.
import type { Db } from './connection.js';
import type { Checkpoint } from '../rows.js';
import { changesAsJson } from './json-changes.js';

// A deleted topic as its tombstone; the opinion groups' summary is JSON text carried as a string.
const TOPIC_DOC_JSON = `CASE WHEN t.deleted = 1
  THEN json_object('id', t.id, 'seq', t.seq, '_deleted', json('true'))
  ELSE json_object(
    'id', t.id, 'title', t.title, 'category', t.category, 'creator_uid', t.creator_uid, 'username', u.display_name,
    'created_at', t.created_at, 'score', t.score, 'responses_count', t.responses_count,
    'stance_agree', t.stance_agree, 'stance_disagree', t.stance_disagree, 'stance_unsure', t.stance_unsure,
    'minds_changed', t.minds_changed, 'locked', CASE WHEN t.locked = 1 THEN json('true') ELSE json('false') END,
    'moderation', t.moderation, 'moderation_reason', t.moderation_reason, 'opinion_groups', t.opinion_groups,
    'seq', t.seq, '_deleted', json('false'))
  END`;

export function createTopicJsonPages(db: Db) {
  const changes = changesAsJson(db, {
    table: 'topics t',
    alias: 't',
    joins: 'LEFT JOIN users u ON u.uid = t.creator_uid',
    doc: TOPIC_DOC_JSON,
  });
  return {
    changesSinceJson: (checkpoint: Checkpoint, limit: number) => changes({ seq: checkpoint.seq, id: checkpoint.id, limit }),
  };
}
