// Topics on PostgreSQL: the SQLite repository's queries (store/sqlite/topics-repo.ts), answer for answer.
import type { Sort } from '../../../../shared/constants.js';
import { hotScore } from '../../../../shared/rules/hot.js';
import { orderBySql, TOPIC_ORDERS } from '../../../../shared/rules/sort-order.js';
import { createPageCache, LIST_PAGES_KEPT } from '../page-cache.js';
import type { Checkpoint, StanceCounts, TopicInsert, TopicListQuery, TopicRow, TopicsRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import { indexWords, tsqueryOf, tsvectorOf } from './search.js';
import {
  LAST_TOPIC_SEQ,
  RECENT_TOPIC_TITLES,
  RESTAMP_TOPICS_OF,
  SET_STANCE_COUNTERS,
  STANCE_COUNTS,
  TOPICS_CREATED_SINCE,
  TOPIC_COUNTS,
  TOPIC_STANCE_COUNTERS,
} from '../sql.js';

/** The row as the SQLite store reads it; `viewer` is the placeholder of the viewer's uid. */
const select = (viewer: string) => `
  SELECT t.id, t.title, t.category, t.creator_uid, t.created_at, t.score, t.responses_count, t.hot,
         t.responses_for, t.responses_against, t.responses_neutral,
         t.stance_agree, t.stance_disagree, t.stance_unsure, t.minds_changed, t.deleted, t.seq,
         t.locked, t.moderation, t.moderation_reason, t.opinion_groups, u.display_name AS username,
         EXISTS (SELECT 1 FROM votes v WHERE v.voter_uid = ${viewer} AND v.target_type = 'topic'
                 AND v.target_id = t.id AND v.deleted = 0 AND v.value = 1)::int AS user_has_upvoted,
         (SELECT v.value FROM votes v WHERE v.voter_uid = ${viewer} AND v.target_type = 'topic'
                 AND v.target_id = t.id AND v.deleted = 0) AS user_vote
  FROM topics t LEFT JOIN users u ON u.uid = t.creator_uid`;

const ORDER: Record<Sort, string> = {
  hot: orderBySql(TOPIC_ORDERS.hot, 't'),
  new: orderBySql(TOPIC_ORDERS.new, 't'),
  top: orderBySql(TOPIC_ORDERS.top, 't'),
};

export function createPgTopicsRepo(q: PgQueries): TopicsRepo {
  // $1 viewer, $2 limit, $3 offset, then the category and the search when given. The category
  // condition is written only when there is one, so the planner can walk the sort's (partial)
  // index and stop at the limit, as on SQLite.
  const listSql = (query: TopicListQuery, search: boolean) => {
    const category = query.category !== undefined ? 'AND t.category = $4' : '';
    const match = search
      ? `AND t.pk IN (SELECT f.pk FROM topics_fts f WHERE f.words @@ $${query.category !== undefined ? 5 : 4}::tsquery)`
      : '';
    return `${select('$1')} WHERE t.deleted = 0 ${category} ${match} ORDER BY ${ORDER[query.sort]} LIMIT $2 OFFSET $3`;
  };
  const listParams = (query: TopicListQuery, ...more: unknown[]) => [
    query.viewer,
    query.limit,
    query.offset,
    ...(query.category !== undefined ? [query.category] : []),
    ...more,
  ];

  // The pages of the lists and title searches, kept while no topic changes (page-cache.ts): the
  // version is one index-only lookup, where a search ranks thousands of matches.
  const pages = createPageCache<TopicRow>(LIST_PAGES_KEPT);
  const listVersion = async () => (await q.row<{ v: number | null }>(LAST_TOPIC_SEQ.pg))!.v ?? 0;
  const cachedList = async (key: string, read: () => Promise<TopicRow[]>): Promise<TopicRow[]> => {
    if (q.inTransaction()) return read();
    const version = await listVersion();
    const kept = pages.read(version, key);
    if (kept) return kept;
    const rows = await read();
    pages.keep(version, key, rows);
    return rows.slice();
  };

  return {
    async insert(row: TopicInsert) {
      const inserted = await q.row<{ pk: number }>(
        `INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING pk`,
        [row.id, row.title, row.category, row.creator_uid, row.created_at, hotScore(0, 0, row.created_at), row.seq],
      );
      await indexWords(q, 'topics_fts', inserted!.pk, tsvectorOf(row.title));
    },
    get: (id, viewer) => q.row<TopicRow>(`${select('$2')} WHERE t.id = $1`, [id, viewer]),
    list: (query) =>
      cachedList(JSON.stringify([query.sort, query.category ?? null, query.limit, query.offset, query.viewer]), () =>
        q.rows<TopicRow>(listSql(query, false), listParams(query)),
      ),
    listVersion,
    search: (query) =>
      cachedList(JSON.stringify(['search', query.match, query.sort, query.category ?? null, query.limit, query.offset, query.viewer]), () =>
        q.rows<TopicRow>(listSql(query, true), listParams(query, tsqueryOf(query.match))),
      ),
    async refreshAggregates(id, createdAt, seq) {
      const counts = await q.row<Pick<TopicRow, 'score' | 'responses_count' | 'responses_for' | 'responses_against' | 'responses_neutral'>>(
        TOPIC_COUNTS.pg,
        [id],
      );
      const { score, responses_count, responses_for, responses_against, responses_neutral } = counts!;
      await q.run(
        `UPDATE topics SET score = $2, responses_count = $3, hot = $4, seq = $5,
                responses_for = $6, responses_against = $7, responses_neutral = $8 WHERE id = $1`,
        [id, score, responses_count, hotScore(score, responses_count, createdAt), seq, responses_for, responses_against, responses_neutral],
      );
    },
    async addToCounts(id, delta, seq) {
      const fors = delta.responses?.for ?? 0;
      const againsts = delta.responses?.against ?? 0;
      const neutrals = delta.responses?.neutral ?? 0;
      const row = await q.row<{ score: number; responses_count: number; created_at: string }>(
        `UPDATE topics SET score = score + $2, responses_count = responses_count + $3, seq = $4,
                responses_for = responses_for + $5, responses_against = responses_against + $6,
                responses_neutral = responses_neutral + $7
         WHERE id = $1 RETURNING score, responses_count, created_at`,
        [id, delta.score ?? 0, fors + againsts + neutrals, seq, fors, againsts, neutrals],
      );
      if (row) await q.run('UPDATE topics SET hot = $2 WHERE id = $1', [id, hotScore(row.score, row.responses_count, row.created_at)]);
    },
    async refreshStanceCounts(id, seq) {
      const counted = await q.row<StanceCounts>(STANCE_COUNTS.pg, [id]);
      const stored = await q.row<StanceCounts>(TOPIC_STANCE_COUNTERS.pg, [id]);
      if (!stored || JSON.stringify(stored) === JSON.stringify(counted)) return false;
      await q.run(SET_STANCE_COUNTERS.pg, [
        counted!.stance_agree,
        counted!.stance_disagree,
        counted!.stance_unsure,
        counted!.minds_changed,
        await seq(),
        id,
      ]);
      return true;
    },
    async softDelete(id, seq) {
      // The tombstone keeps no title (as on SQLite), and nothing of it stays searchable.
      const row = await q.row<{ pk: number }>("UPDATE topics SET deleted = 1, title = '', seq = $2 WHERE id = $1 RETURNING pk", [id, seq]);
      if (row) await indexWords(q, 'topics_fts', row.pk, tsvectorOf(''));
    },
    restampCreator: (uid, seq) => q.run(RESTAMP_TOPICS_OF.pg, [seq, uid]),
    // PostgreSQL's json functions space their text unlike JSON.stringify: the pull stringifies the rows.
    changesSinceJson: async () => null,
    changesSince: (checkpoint: Checkpoint, limit, viewer) =>
      q.rows<TopicRow>(`${select('$4')} WHERE (t.seq > $1 OR (t.seq = $1 AND t.id > $2)) ORDER BY t.seq, t.id LIMIT $3`, [
        checkpoint.seq,
        checkpoint.id,
        limit,
        viewer,
      ]),
    // New-account limit and spam check: the author's recent topics, by topics_creator_time.
    countCreatedSince: async (uid, sinceIso) => Number((await q.row<{ n: string }>(TOPICS_CREATED_SINCE.pg, [uid, sinceIso]))!.n),
    recentTitles: async (uid, sinceIso, limit) =>
      (await q.rows<{ title: string }>(RECENT_TOPIC_TITLES.pg, [uid, sinceIso, limit])).map((row) => row.title),
  };
}
