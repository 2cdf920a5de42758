// Responses on PostgreSQL: the SQLite repository's queries (store/sqlite/responses-repo.ts), answer for answer.
import type { ResponseType } from '../../../../shared/constants.js';
import type { ResponseMapping, ResponseVersion } from '../../../../shared/types.js';
import { lastVersionsByResponse } from '../versions.js';
import { orderBySql, RESPONSE_ORDER } from '../../../../shared/rules/sort-order.js';
import type { ResponseRow, ResponsesRepo, StanceTally } from '../rows.js';
import type { PgQueries } from './queries.js';
import { bm25, indexWords, queryTerms, tsqueryOf, tsvectorOf } from './search.js';
import { refreshSuggestion } from './sources-repo.js';
import {
  ADD_RESPONSE_COUNTS,
  CITED_SOURCE_IDS,
  DELTA_GIVERS_COUNT,
  DROP_CITATIONS,
  DROP_RESPONSE_VERSIONS,
  KEEP_RESPONSE_VERSION,
  LAST_RESPONSE_SEQ_OF_TOPIC,
  RECENT_RESPONSE_CONTENTS,
  RECOUNT_RESPONSE,
  RESPONSE_DELTA_COUNT,
  RESTAMP_RESPONSES_OF,
  SET_DELTA_COUNT,
  STANCE_TALLIES,
  TOPICS_ANSWERED_BY,
} from '../sql.js';

/** The row as the SQLite store reads it (the quote shown only while it exists); `viewer`: its placeholder. */
const select = (viewer: string) => `
  SELECT r.id, r.topic_id, r.parent_response_id, r.quoted_response_id, r.type, r.content, r.creator_uid,
         r.created_at, r.updated_at, r.edited_at, r.score, r.comment_count,
         r.delta_count, r.upvotes_agree, r.upvotes_disagree, r.downvotes_agree, r.downvotes_disagree, r.deleted, r.seq, r.moderation, r.moderation_reason,
         u.display_name AS username,
         EXISTS (SELECT 1 FROM votes v WHERE v.voter_uid = ${viewer} AND v.target_type = 'response'
                 AND v.target_id = r.id AND v.deleted = 0 AND v.value = 1)::int AS user_has_upvoted,
         (SELECT v.value FROM votes v WHERE v.voter_uid = ${viewer} AND v.target_type = 'response'
                 AND v.target_id = r.id AND v.deleted = 0) AS user_vote,
         q.content AS quoted_content, qu.display_name AS quoted_username,
         CASE WHEN q.id IS NULL THEN NULL ELSE 1 - q.deleted END AS quoted_live
  FROM responses r
  LEFT JOIN users u ON u.uid = r.creator_uid
  LEFT JOIN responses q ON q.id = r.quoted_response_id
  LEFT JOIN users qu ON qu.uid = q.creator_uid`;

const ORDER = orderBySql(RESPONSE_ORDER, 'r');

export function createPgResponsesRepo(q: PgQueries): ResponsesRepo {
  return {
    async insert(row) {
      const inserted = await q.row<{ pk: number }>(
        `INSERT INTO responses (id, topic_id, parent_response_id, quoted_response_id, type, content, creator_uid, created_at, updated_at, seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) RETURNING pk`,
        [
          row.id,
          row.topic_id,
          row.parent_response_id,
          row.quoted_response_id,
          row.type,
          row.content,
          row.creator_uid,
          row.created_at,
          row.seq,
        ],
      );
      await indexWords(q, 'responses_fts', inserted!.pk, tsvectorOf(row.content));
    },
    get: (id, viewer) => q.row<ResponseRow>(`${select('$2')} WHERE r.id = $1`, [id, viewer]),
    roots: (topicId, viewer) =>
      q.rows<ResponseRow>(`${select('$2')} WHERE r.topic_id = $1 AND r.parent_response_id IS NULL AND r.deleted = 0 ORDER BY ${ORDER}`, [
        topicId,
        viewer,
      ]),
    replies: (parentId, viewer) =>
      q.rows<ResponseRow>(`${select('$2')} WHERE r.parent_response_id = $1 AND r.deleted = 0 ORDER BY ${ORDER}`, [parentId, viewer]),
    mappingsPage: async (topicId, after, limit) => {
      const rows = await q.rows<ResponseMapping & { created_at: string }>(
        `SELECT r.id, r.parent_response_id, r.created_at FROM responses r
         WHERE r.topic_id = $1 AND r.deleted = 0 AND (r.created_at, r.id) > ($2::text, $3::text)
         ORDER BY ${ORDER} LIMIT $4`,
        [topicId, after?.created_at ?? '', after?.id ?? '', limit + 1],
      );
      const last = rows.length > limit ? rows[limit - 1]! : null;
      return {
        json: JSON.stringify(rows.slice(0, limit).map(({ id, parent_response_id }) => ({ id, parent_response_id }))),
        next: last ? { created_at: last.created_at, id: last.id } : null,
      };
    },
    topicVersion: async (topicId) => Number((await q.row<{ v: number | string | null }>(LAST_RESPONSE_SEQ_OF_TOPIC.pg, [topicId]))?.v ?? 0),
    rootsPage: (topicId, viewer, after, limit) =>
      q.rows<ResponseRow>(
        `${select('$2')} WHERE r.topic_id = $1 AND r.parent_response_id IS NULL AND r.deleted = 0
           AND (r.created_at, r.id) > ($3::text, $4::text)
         ORDER BY ${ORDER} LIMIT $5`,
        [topicId, viewer, after?.created_at ?? '', after?.id ?? '', limit],
      ),
    // PostgreSQL's json functions space their text unlike JSON.stringify: the domain serialises the rows.
    rootsPageJson: async () => null,
    repliesPageJson: async () => null,
    changesSinceJson: async () => null,
    repliesPage: (parentId, viewer, after, limit) =>
      q.rows<ResponseRow>(
        `${select('$2')} WHERE r.parent_response_id = $1 AND r.deleted = 0
           AND (r.created_at, r.id) > ($3::text, $4::text)
         ORDER BY ${ORDER} LIMIT $5`,
        [parentId, viewer, after?.created_at ?? '', after?.id ?? '', limit],
      ),
    // Best match first: FTS5's bm25 (search.ts), ties oldest first.
    search: (topicId, match, limit, viewer) => {
      const ranking = bm25('responses_fts', '$5');
      return q.rows<ResponseRow>(
        `${ranking.with} ${select('$4')} JOIN responses_fts f ON f.pk = r.pk
         WHERE f.words @@ $2::tsquery AND r.topic_id = $1 AND r.deleted = 0
         ORDER BY ${ranking.rank('f')}, r.pk LIMIT $3`,
        [topicId, tsqueryOf(match), limit, viewer, queryTerms(match)],
      );
    },
    // Breadth first, each response's live replies in (created_at, id) order: the order SQLite's
    // recursive query walks, which is the order a subtree delete stamps its seqs in.
    async subtree(id) {
      const nodes = await q.rows<{ id: string; creator_uid: string; type: ResponseType }>(
        'SELECT id, creator_uid, type FROM responses WHERE id = $1',
        [id],
      );
      let level = nodes.map((node) => node.id);
      while (level.length > 0) {
        const children = await q.rows<{ id: string; creator_uid: string; type: ResponseType }>(
          `SELECT id, creator_uid, type FROM responses WHERE parent_response_id = ANY ($1::text[]) AND deleted = 0
           ORDER BY array_position($1::text[], parent_response_id), created_at, id`,
          [level],
        );
        nodes.push(...children);
        level = children.map((child) => child.id);
      }
      return nodes;
    },
    liveIdsOfTopic: async (topicId) =>
      (await q.rows<{ id: string }>('SELECT id FROM responses WHERE topic_id = $1 AND deleted = 0 ORDER BY pk', [topicId])).map(
        (row) => row.id,
      ),
    async softDelete(id, seq) {
      // A deleted response keeps its row (its tombstone replicates) but not its text nor its citations.
      const cited = await q.rows<{ source_id: string }>(CITED_SOURCE_IDS.pg, [id]);
      await q.run(DROP_CITATIONS.pg, [id]);
      await q.run(DROP_RESPONSE_VERSIONS.pg, [id]);
      const row = await q.row<{ pk: number }>("UPDATE responses SET deleted = 1, content = '', seq = $2 WHERE id = $1 RETURNING pk", [
        id,
        seq,
      ]);
      if (row) await indexWords(q, 'responses_fts', row.pk, tsvectorOf(''));
      // The deleted citations no longer count towards the catalogue's suggested name.
      for (const { source_id } of cited) await refreshSuggestion(q, source_id);
    },
    async restampCreator(uid, seq) {
      const topics = (await q.rows<{ topic_id: string }>(TOPICS_ANSWERED_BY.pg, [uid])).map((row) => row.topic_id);
      if (topics.length > 0) await q.run(RESTAMP_RESPONSES_OF.pg, [seq, uid]);
      return topics;
    },
    async update(row) {
      const updated = await q.row<{ pk: number }>(
        `UPDATE responses SET content = $2, quoted_response_id = $3, updated_at = $4, edited_at = $5, seq = $6 WHERE id = $1 RETURNING pk`,
        [row.id, row.content, row.quoted_response_id, row.updated_at, row.edited_at, row.seq],
      );
      if (updated) await indexWords(q, 'responses_fts', updated.pk, tsvectorOf(row.content));
    },
    async keepVersion(responseId, content, createdAt) {
      await q.run(KEEP_RESPONSE_VERSION.pg, [responseId, content, createdAt]);
    },
    async versionsOf(responseIds) {
      if (responseIds.length === 0) return new Map();
      const rows = await q.rows<ResponseVersion & { response_id: string }>(
        `SELECT v.response_id, v.version, v.content, v.created_at
         FROM unnest($1::text[]) WITH ORDINALITY AS j (value, key)
         JOIN response_versions v ON v.response_id = j.value
         ORDER BY j.key, v.version`,
        [responseIds],
      );
      return lastVersionsByResponse(rows);
    },
    async refreshAggregates(id, seq) {
      await q.run(RECOUNT_RESPONSE.pg, [id, seq]);
    },
    async addToCounts(id, delta, seq) {
      await q.run(ADD_RESPONSE_COUNTS.pg, [
        delta.score ?? 0,
        delta.comments ?? 0,
        delta.upvotesAgree ?? 0,
        delta.upvotesDisagree ?? 0,
        delta.downvotesAgree ?? 0,
        delta.downvotesDisagree ?? 0,
        seq,
        id,
      ]);
    },
    async refreshDeltaCount(id, seq) {
      const stored = await q.row<{ delta_count: number }>(RESPONSE_DELTA_COUNT.pg, [id]);
      const counted = (await q.row<{ n: number }>(DELTA_GIVERS_COUNT.pg, [id]))!.n;
      if (!stored || stored.delta_count === counted) return false;
      await q.run(SET_DELTA_COUNT.pg, [counted, await seq(), id]);
      return true;
    },
    stanceTallies: (topicId) => q.rows<StanceTally>(STANCE_TALLIES.pg, [topicId]),
    countByType: (topicId) =>
      q.rows<{ type: ResponseType; n: number }>(
        'SELECT type, count(*) AS n FROM responses WHERE topic_id = $1 AND deleted = 0 GROUP BY type ORDER BY type',
        [topicId],
      ),
    changesSince: (topicId, checkpoint, limit, viewer) =>
      q.rows<ResponseRow>(
        `${select('$5')} WHERE r.topic_id = $1 AND (r.seq > $2 OR (r.seq = $2 AND r.id > $3)) ORDER BY r.seq, r.id LIMIT $4`,
        [topicId, checkpoint.seq, checkpoint.id, limit, viewer],
      ),
    // The spam check: the author's recent responses (written or edited), by responses_creator_time.
    recentContents: async (uid, sinceIso, limit) =>
      (await q.rows<{ content: string }>(RECENT_RESPONSE_CONTENTS.pg, [uid, sinceIso, sinceIso, limit])).map((row) => row.content),
  };
}
