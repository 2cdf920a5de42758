// Responses: rows, the tree queries (roots, replies, mappings, subtree), content search.
import type { Db } from './connection.js';
import type { ResponseType } from '../../../../shared/constants.js';
import type { ResponseVersion } from '../../../../shared/types.js';
import { lastVersionsByResponse } from '../versions.js';
import { createResponseJsonPages } from './response-json.js';
import { orderBySql, RESPONSE_ORDER } from '../../../../shared/rules/sort-order.js';
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
  SUGGEST_SOURCE_NAME,
  TOPICS_ANSWERED_BY,
} from '../sql.js';
import type {
  MappingsPageJson,
  ResponseCountsDelta,
  ResponseInsert,
  ResponsePosition,
  ResponseRow,
  ResponseUpdate,
  StanceTally,
} from '../rows.js';

// The quote is shown only while the quoted response still exists.
const SELECT = `
  SELECT r.id, r.topic_id, r.parent_response_id, r.quoted_response_id, r.type, r.content, r.creator_uid,
         r.created_at, r.updated_at, r.edited_at, r.score, r.comment_count,
         r.delta_count, r.upvotes_agree, r.upvotes_disagree, r.downvotes_agree, r.downvotes_disagree, r.deleted, r.seq, r.moderation, r.moderation_reason,
         u.display_name AS username,
         EXISTS (SELECT 1 FROM votes v WHERE v.voter_uid = @viewer AND v.target_type = 'response'
                 AND v.target_id = r.id AND v.deleted = 0 AND v.value = 1) AS user_has_upvoted,
         (SELECT v.value FROM votes v WHERE v.voter_uid = @viewer AND v.target_type = 'response'
                 AND v.target_id = r.id AND v.deleted = 0) AS user_vote,
         q.content AS quoted_content, qu.display_name AS quoted_username,
         CASE WHEN q.id IS NULL THEN NULL ELSE 1 - q.deleted END AS quoted_live
  FROM responses r
  LEFT JOIN users u ON u.uid = r.creator_uid
  LEFT JOIN responses q ON q.id = r.quoted_response_id
  LEFT JOIN users qu ON qu.uid = q.creator_uid`;

export function createResponsesRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO responses (id, topic_id, parent_response_id, quoted_response_id, type, content, creator_uid,
                           created_at, updated_at, seq)
    VALUES (@id, @topic_id, @parent_response_id, @quoted_response_id, @type, @content, @creator_uid,
            @created_at, @created_at, @seq)
  `);
  const get = db.prepare<{ id: string; viewer: string | null }, ResponseRow>(`${SELECT} WHERE r.id = @id`);
  // `+r.parent_response_id`: never walk responses_parent for the roots. With a big site's statistics
  // (two rows per parent on average) the planner took "parent IS NULL" for a narrow lookup and walked
  // every topic's roots in time order, keeping this topic's; responses_topic_order is the topic's own.
  const roots = db.prepare<{ topicId: string; viewer: string | null }, ResponseRow>(`
    ${SELECT} WHERE r.topic_id = @topicId AND +r.parent_response_id IS NULL AND r.deleted = 0
    ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')}
  `);
  const replies = db.prepare<{ parentId: string; viewer: string | null }, ResponseRow>(`
    ${SELECT} WHERE r.parent_response_id = @parentId AND r.deleted = 0 ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')}
  `);
  // Pages of the same lists, after a position (created_at, id): the row value walks the same indexes.
  type PageParams = { viewer: string | null; afterAt: string; afterId: string; limit: number };
  const rootsPage = db.prepare<PageParams & { topicId: string }, ResponseRow>(`
    ${SELECT} WHERE r.topic_id = @topicId AND +r.parent_response_id IS NULL AND r.deleted = 0
      AND (r.created_at, r.id) > (@afterAt, @afterId)
    ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')} LIMIT @limit
  `);
  // One descent of responses_topic_seq (topic_id, seq, id).
  const topicVersion = db.prepare<[string], { v: number | null }>(LAST_RESPONSE_SEQ_OF_TOPIC.sqlite);
  const repliesPage = db.prepare<PageParams & { parentId: string }, ResponseRow>(`
    ${SELECT} WHERE r.parent_response_id = @parentId AND r.deleted = 0
      AND (r.created_at, r.id) > (@afterAt, @afterId)
    ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')} LIMIT @limit
  `);
  type MappingParams = { topicId: string; afterAt: string; afterId: string; limit: number };
  // A page of pairs serialised by SQLite's own JSON functions in the walk of responses_topic_order: about
  // a third of reading 5,000 rows into objects and stringifying them (1.0 against 2.9 ms at full size),
  // in one short call, so the page needs no turns of its own.
  const mappingsJson = db.prepare<MappingParams, { json: string }>(`
    SELECT json_group_array(json_object('id', id, 'parent_response_id', parent_response_id)) AS json FROM (
      SELECT r.id, r.parent_response_id FROM responses r
      WHERE r.topic_id = @topicId AND r.deleted = 0 AND (r.created_at, r.id) > (@afterAt, @afterId)
      ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')} LIMIT @limit
    )
  `);
  // The page's last pair and whether one follows it: two index entries past `limit - 1` skipped ones.
  const mappingsEnd = db.prepare<MappingParams, ResponsePosition>(`
    SELECT r.created_at, r.id FROM responses r
    WHERE r.topic_id = @topicId AND r.deleted = 0 AND (r.created_at, r.id) > (@afterAt, @afterId)
    ORDER BY ${orderBySql(RESPONSE_ORDER, 'r')} LIMIT 2 OFFSET @limit - 1
  `);
  const search = db.prepare<{ topicId: string; match: string; limit: number; viewer: string | null }, ResponseRow>(`
    ${SELECT} JOIN responses_fts f ON f.rowid = r.pk
    WHERE responses_fts MATCH @match AND r.topic_id = @topicId AND r.deleted = 0
    ORDER BY f.rank LIMIT @limit
  `);
  const subtree = db.prepare<[string], { id: string; creator_uid: string; type: ResponseType }>(`
    WITH RECURSIVE tree (id) AS (
      SELECT ? UNION ALL
      SELECT r.id FROM responses r JOIN tree ON r.parent_response_id = tree.id WHERE r.deleted = 0
    )
    SELECT r.id, r.creator_uid, r.type FROM tree JOIN responses r ON r.id = tree.id
  `);
  const live = db.prepare<[string], { id: string }>('SELECT id FROM responses WHERE topic_id = ? AND deleted = 0');
  // A deleted response keeps its row (its tombstone replicates) but not its text nor its citations.
  const softDelete = db.prepare<[number, string]>("UPDATE responses SET deleted = 1, content = '', seq = ? WHERE id = ?");
  // The spam check: the author's recent responses (written or edited), by responses_creator_time.
  const recentContents = db.prepare<[string, string, string, number], { content: string }>(RECENT_RESPONSE_CONTENTS.sqlite);
  const citedSources = db.prepare<[string], { source_id: string }>(CITED_SOURCE_IDS.sqlite);
  const dropCitations = db.prepare<[string]>(DROP_CITATIONS.sqlite);
  const refreshSuggestion = db.prepare<[string]>(SUGGEST_SOURCE_NAME.sqlite);
  const creatorTopics = db.prepare<[string], { topic_id: string }>(TOPICS_ANSWERED_BY.sqlite);
  const restamp = db.prepare<[number, string]>(RESTAMP_RESPONSES_OF.sqlite);
  const keepVersion = db.prepare<{ id: string; content: string; created_at: string }>(KEEP_RESPONSE_VERSION.sqlite);
  const dropVersions = db.prepare<[string]>(DROP_RESPONSE_VERSIONS.sqlite);
  const versionsOf = db.prepare<[string], ResponseVersion & { response_id: string }>(`
    SELECT v.response_id, v.version, v.content, v.created_at
    FROM json_each(?) j JOIN response_versions v ON v.response_id = j.value
    ORDER BY j.key, v.version
  `);
  const update = db.prepare(`
    UPDATE responses SET content = @content, quoted_response_id = @quoted_response_id, updated_at = @updated_at,
           edited_at = @edited_at, seq = @seq WHERE id = @id
  `);
  const refresh = db.prepare(RECOUNT_RESPONSE.sqlite);
  const addToCounts = db.prepare<{
    id: string;
    score: number;
    comments: number;
    agree: number;
    disagree: number;
    down_agree: number;
    down_disagree: number;
    seq: number;
  }>(ADD_RESPONSE_COUNTS.sqlite);
  // Δ credits received, recounted from their rows: people, not credits (someone who
  // changes their mind back and forth and credits the same response each time counts once).
  const deltaCount = db.prepare<[string], { n: number }>(DELTA_GIVERS_COUNT.sqlite);
  const storedDeltaCount = db.prepare<[string], { delta_count: number }>(RESPONSE_DELTA_COUNT.sqlite);
  const writeDeltaCount = db.prepare<[number, number, string]>(SET_DELTA_COUNT.sqlite);
  const stanceTallies = db.prepare<[string], StanceTally>(STANCE_TALLIES.sqlite);
  const countByType = db.prepare<[string], { type: ResponseType; n: number }>(
    'SELECT type, count(*) AS n FROM responses WHERE topic_id = ? AND deleted = 0 GROUP BY type',
  );
  const changes = db.prepare<{ topicId: string; seq: number; id: string; limit: number; viewer: string | null }, ResponseRow>(`
    ${SELECT} WHERE r.topic_id = @topicId AND (r.seq > @seq OR (r.seq = @seq AND r.id > @id))
    ORDER BY r.seq, r.id LIMIT @limit
  `);

  return {
    ...createResponseJsonPages(db),
    insert: (row: ResponseInsert) => insert.run(row),
    get: (id: string, viewer: string | null) => get.get({ id, viewer }),
    roots: (topicId: string, viewer: string | null) => roots.all({ topicId, viewer }),
    replies: (parentId: string, viewer: string | null) => replies.all({ parentId, viewer }),
    mappingsPage(topicId: string, after: ResponsePosition | null, limit: number): MappingsPageJson {
      const params = { topicId, afterAt: after?.created_at ?? '', afterId: after?.id ?? '', limit };
      const end = mappingsEnd.all(params);
      return { json: mappingsJson.get(params)!.json, next: end.length === 2 ? end[0]! : null };
    },
    topicVersion: (topicId: string) => topicVersion.get(topicId)!.v ?? 0,
    /** At most `limit` roots after a position ('' and '' for the first page), in RESPONSE_ORDER. */
    rootsPage: (topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number) =>
      rootsPage.all({ topicId, viewer, afterAt: after?.created_at ?? '', afterId: after?.id ?? '', limit }),
    /** At most `limit` direct replies after a position, in RESPONSE_ORDER. */
    repliesPage: (parentId: string, viewer: string | null, after: ResponsePosition | null, limit: number) =>
      repliesPage.all({ parentId, viewer, afterAt: after?.created_at ?? '', afterId: after?.id ?? '', limit }),
    search: (topicId: string, match: string, limit: number, viewer: string | null) => search.all({ topicId, match, limit, viewer }),
    /** The response and all its live descendants. */
    subtree: (id: string) => subtree.all(id),
    liveIdsOfTopic: (topicId: string) => live.all(topicId).map((row) => row.id),
    softDelete(id: string, seq: number) {
      const cited = citedSources.all(id);
      dropCitations.run(id);
      dropVersions.run(id);
      softDelete.run(seq, id);
      // The deleted citations no longer count towards the catalogue's suggested name.
      for (const { source_id } of cited) refreshSuggestion.run(source_id);
    },
    /** Stamps a new seq on every response of the creator (their name changed); returns the topics they are in. */
    restampCreator(uid: string, seq: number): string[] {
      const topics = creatorTopics.all(uid).map((row) => row.topic_id);
      if (topics.length > 0) restamp.run(seq, uid);
      return topics;
    },
    update: (row: ResponseUpdate) => update.run(row),
    keepVersion: (responseId: string, content: string, createdAt: string) =>
      keepVersion.run({ id: responseId, content, created_at: createdAt }),
    versionsOf: (responseIds: readonly string[]) =>
      lastVersionsByResponse(responseIds.length === 0 ? [] : versionsOf.all(JSON.stringify(responseIds))),
    /** Recounts score and direct replies and stamps a new seq (repairs and tests). */
    refreshAggregates: (id: string, seq: number) => refresh.run({ id, seq }),
    /** Adds to the stored score and reply count (a vote, a reply created or deleted) and stamps a new seq: O(1). */
    addToCounts: (id: string, delta: ResponseCountsDelta, seq: number) =>
      addToCounts.run({
        id,
        score: delta.score ?? 0,
        comments: delta.comments ?? 0,
        agree: delta.upvotesAgree ?? 0,
        disagree: delta.upvotesDisagree ?? 0,
        down_agree: delta.downvotesAgree ?? 0,
        down_disagree: delta.downvotesDisagree ?? 0,
        seq,
      }),
    /** Recounts the Δ credits the response received; when the count changed, stamps a new seq and returns true. */
    async refreshDeltaCount(id: string, seq: () => Promise<number>): Promise<boolean> {
      const stored = storedDeltaCount.get(id);
      const counted = deltaCount.get(id)!.n;
      if (!stored || stored.delta_count === counted) return false;
      writeDeltaCount.run(counted, await seq(), id);
      return true;
    },
    /** A topic's live responses with their upvotes by side and Δ count, oldest first (common ground). */
    stanceTallies: (topicId: string): StanceTally[] => stanceTallies.all(topicId),
    /** How many live responses of each type the topic has (types without any are absent). */
    countByType: (topicId: string) => countByType.all(topicId),
    changesSince: (topicId: string, checkpoint: { seq: number; id: string }, limit: number, viewer: string | null) =>
      changes.all({ topicId, ...checkpoint, limit, viewer }),
    recentContents: (uid: string, sinceIso: string, limit: number) =>
      recentContents.all(uid, sinceIso, sinceIso, limit).map((row) => row.content),
  };
}
