// A page of responses as the JSON the API answers, made by SQLite itself. Reading 1,000 rows into
// objects, attaching their citations and earlier texts and stringifying them cost about 16 ms of the
// event loop per page (a 23,000-root topic's first page); the same page built with json_object and
// handed over as one UTF-8 BLOB costs about 4.7 ms and makes no JS object per row (a sync pull of 200
// of a topic's responses: 2.3 ms). The text is the same, byte for byte, as JSON.stringify of toResponse
// (store/rows.ts) and of responseDoc (sync/collections/responses.ts) give: the same keys in the same
// order, the same escapes (tests/sync-server/responses-json.test.ts and sync-pull-sources.test.ts).
// PostgreSQL's json functions space their output differently, so that store keeps the rows path.
import type { Db } from './connection.js';
import { VERSIONS_SHOWN } from '../../../../shared/rules/edit-history.js';
import { orderBySql, RESPONSE_ORDER } from '../../../../shared/rules/sort-order.js';
import type { Checkpoint, ResponsePageText, ResponsePosition } from '../rows.js';
import { bytesOf, changesAsJson } from './json-changes.js';

const TRUE_OR_FALSE = (condition: string) => `CASE WHEN ${condition} THEN json('true') ELSE json('false') END`;

// Of many earlier texts the first and the last VERSIONS_SHOWN (publicVersions), oldest first.
const SHOWN_VERSIONS = `(
  SELECT json_group_array(json_object('version', v.version, 'content', v.content, 'created_at', v.created_at)) FROM (
    SELECT * FROM response_versions v WHERE v.response_id = r.id
      AND (v.version = (SELECT min(version) FROM response_versions WHERE response_id = r.id)
           OR (SELECT count(*) FROM response_versions w WHERE w.response_id = r.id AND w.version > v.version) < ${VERSIONS_SHOWN})
    ORDER BY v.version) v)`;

/** The response's citations in their order (the key's position), each with `idKey` first (REST's have the source's id). */
const CITATIONS = (idKey: string) => `(
  SELECT json_group_array(json_object(${idKey}'url', s.url, 'name', rs.name, 'description', rs.description))
  FROM (SELECT * FROM response_sources WHERE response_id = r.id ORDER BY position) rs JOIN sources s ON s.id = rs.source_id)`;

// toResponse, in SQL. A quote shows while the quoted response exists and is not deleted; a moderated
// or deleted response shows no earlier text.
const RESPONSE_JSON = `json_object(
  'id', r.id, 'content', r.content, 'type', r.type, 'topic_id', r.topic_id, 'parent_response_id', r.parent_response_id,
  'quoted_response', CASE WHEN q.id IS NOT NULL AND q.deleted = 0 THEN json_object('id', q.id, 'content', q.content, 'username', qu.display_name) END,
  'quoted_response_id', CASE WHEN q.id IS NOT NULL AND q.deleted = 0 THEN q.id END,
  'sources', ${CITATIONS(`'id', s.id, `)},
  'created_at', r.created_at, 'edited_at', r.edited_at,
  'versions', CASE WHEN r.moderation IS NULL AND r.deleted = 0 THEN ${SHOWN_VERSIONS} ELSE json('[]') END,
  'username', u.display_name, 'creator_uid', r.creator_uid, 'score', r.score,
  'user_has_upvoted', ${TRUE_OR_FALSE(`EXISTS (SELECT 1 FROM votes v WHERE v.voter_uid = @viewer AND v.target_type = 'response' AND v.target_id = r.id AND v.deleted = 0 AND v.value = 1)`)},
  'user_has_downvoted', ${TRUE_OR_FALSE(`EXISTS (SELECT 1 FROM votes v WHERE v.voter_uid = @viewer AND v.target_type = 'response' AND v.target_id = r.id AND v.deleted = 0 AND v.value = -1)`)},
  'comment_count', r.comment_count, 'moderation', r.moderation, 'moderation_reason', r.moderation_reason)`;

// responseDoc (sync/collections/responses.ts), in SQL: a deleted response as its tombstone.
const RESPONSE_DOC_JSON = `CASE WHEN r.deleted = 1
  THEN json_object('id', r.id, 'topic_id', r.topic_id, 'parent_response_id', r.parent_response_id, 'seq', r.seq, '_deleted', json('true'))
  ELSE json_object(
    'id', r.id, 'topic_id', r.topic_id, 'parent_response_id', r.parent_response_id, 'quoted_response_id', r.quoted_response_id,
    'type', r.type, 'content', r.content, 'sources', ${CITATIONS('')}, 'creator_uid', r.creator_uid, 'username', u.display_name,
    'created_at', r.created_at, 'updated_at', r.updated_at, 'edited_at', r.edited_at,
    'versions', CASE WHEN r.moderation IS NULL THEN ${SHOWN_VERSIONS} ELSE json('[]') END,
    'score', r.score, 'comment_count', r.comment_count, 'delta_count', r.delta_count,
    'upvotes_agree', r.upvotes_agree, 'upvotes_disagree', r.upvotes_disagree,
    'downvotes_agree', r.downvotes_agree, 'downvotes_disagree', r.downvotes_disagree,
    'moderation', r.moderation, 'moderation_reason', r.moderation_reason, 'seq', r.seq, '_deleted', json('false'))
  END`;

type PageParams = { viewer: string | null; afterAt: string; afterId: string; limit: number };

/**
 * Two statements per list, read in one transaction (one moment, even with other processes writing):
 * the page's array (CAST AS BLOB: the bytes, no string in between) and where it ends, the position of
 * its last row when another follows (two index entries past `limit - 1` skipped ones). Numbering the
 * rows to do both in one statement cost half as much again (a temporary b-tree for the order).
 */
function pageStatements<P>(db: Db, where: string) {
  const page = `WHERE ${where} AND r.deleted = 0 AND (r.created_at, r.id) > (@afterAt, @afterId) ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')}`;
  const json = db.prepare<P & PageParams, { json: Buffer }>(`
    SELECT CAST('[' || coalesce(group_concat(j, ','), '') || ']' AS BLOB) AS json FROM (
      SELECT ${RESPONSE_JSON} AS j FROM responses r
        LEFT JOIN users u ON u.uid = r.creator_uid
        LEFT JOIN responses q ON q.id = r.quoted_response_id
        LEFT JOIN users qu ON qu.uid = q.creator_uid
      ${page} LIMIT @limit
    )
  `);
  const end = db.prepare<P & PageParams, ResponsePosition>(`SELECT r.created_at, r.id FROM responses r ${page} LIMIT 2 OFFSET @limit - 1`);
  return db.transaction((params: P & PageParams): ResponsePageText => {
    const bytes = json.get(params)!.json;
    const last = end.all(params);
    return { json: bytesOf(bytes), next: last.length === 2 ? last[0]! : null };
  });
}

export function createResponseJsonPages(db: Db) {
  // `+r.parent_response_id`: the topic's own index (responses-repo.ts says why).
  const roots = pageStatements<{ topicId: string }>(db, 'r.topic_id = @topicId AND +r.parent_response_id IS NULL');
  const replies = pageStatements<{ parentId: string }>(db, 'r.parent_response_id = @parentId');
  const changes = changesAsJson<{ topicId: string }>(db, {
    table: 'responses r',
    alias: 'r',
    joins: 'LEFT JOIN users u ON u.uid = r.creator_uid',
    scope: 'r.topic_id = @topicId',
    doc: RESPONSE_DOC_JSON,
  });
  const position = (after: ResponsePosition | null) => ({ afterAt: after?.created_at ?? '', afterId: after?.id ?? '' });
  return {
    rootsPageJson: (topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number) =>
      roots({ topicId, viewer, limit, ...position(after) }),
    repliesPageJson: (parentId: string, viewer: string | null, after: ResponsePosition | null, limit: number) =>
      replies({ parentId, viewer, limit, ...position(after) }),
    changesSinceJson: (topicId: string, checkpoint: Checkpoint, limit: number) =>
      changes({ topicId, seq: checkpoint.seq, id: checkpoint.id, limit }),
  };
}
