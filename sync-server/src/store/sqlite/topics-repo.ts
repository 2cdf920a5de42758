// Topics: rows, the three sorted lists (each an index scan), title search, aggregates.
import type { Db } from './connection.js';
import type { ResponseType, Sort } from '../../../../shared/constants.js';
import { hotScore } from '../../../../shared/rules/hot.js';
import { orderBySql, TOPIC_ORDERS } from '../../../../shared/rules/sort-order.js';
import { createPageCache, LIST_PAGES_KEPT } from '../page-cache.js';
import { createTopicJsonPages } from './topic-json.js';
import { createTitleIndex } from './title-index.js';
import { createTopicPageJson } from './topic-page-json.js';
import { ftsQueryWords } from '../../../../shared/rules/search-words.js';
import type { StanceCounts, TopicCountsDelta, TopicInsert, TopicRow } from '../rows.js';
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

const SELECT = `
  SELECT t.id, t.title, t.category, t.creator_uid, t.created_at, t.score, t.responses_count, t.hot,
         t.responses_for, t.responses_against, t.responses_neutral,
         t.stance_agree, t.stance_disagree, t.stance_unsure, t.minds_changed, t.deleted, t.seq,
         t.locked, t.moderation, t.moderation_reason, t.opinion_groups, u.display_name AS username,
         EXISTS (SELECT 1 FROM votes v WHERE v.voter_uid = @viewer AND v.target_type = 'topic'
                 AND v.target_id = t.id AND v.deleted = 0 AND v.value = 1) AS user_has_upvoted,
         (SELECT v.value FROM votes v WHERE v.voter_uid = @viewer AND v.target_type = 'topic'
                 AND v.target_id = t.id AND v.deleted = 0) AS user_vote
  FROM topics t LEFT JOIN users u ON u.uid = t.creator_uid`;

/** SELECT's columns after a leading pk, as topicRowOf reads them (checked when the statement is prepared). */
const TOPIC_ROW_COLUMNS = [
  'pk',
  'id',
  'title',
  'category',
  'creator_uid',
  'created_at',
  'score',
  'responses_count',
  'hot',
  'responses_for',
  'responses_against',
  'responses_neutral',
  'stance_agree',
  'stance_disagree',
  'stance_unsure',
  'minds_changed',
  'deleted',
  'seq',
  'locked',
  'moderation',
  'moderation_reason',
  'opinion_groups',
  'username',
  'user_has_upvoted',
  'user_vote',
];

/** A row of SELECT (after a leading pk) read as an array: the columns in SELECT's order. */
const topicRowOf = (r: unknown[]): TopicRow => ({
  id: r[1] as string,
  title: r[2] as string,
  category: r[3] as string,
  creator_uid: r[4] as string,
  created_at: r[5] as string,
  score: r[6] as number,
  responses_count: r[7] as number,
  hot: r[8] as number,
  responses_for: r[9] as number,
  responses_against: r[10] as number,
  responses_neutral: r[11] as number,
  stance_agree: r[12] as number,
  stance_disagree: r[13] as number,
  stance_unsure: r[14] as number,
  minds_changed: r[15] as number,
  deleted: r[16] as number,
  seq: r[17] as number,
  locked: r[18] as number,
  moderation: r[19] as TopicRow['moderation'],
  moderation_reason: r[20] as string | null,
  opinion_groups: r[21] as string | null,
  username: r[22] as string | null,
  user_has_upvoted: r[23] as number,
  user_vote: r[24] as TopicRow['user_vote'],
});

type SearchQuery = { match: string; sort: Sort; category?: string | undefined; limit: number; offset: number; viewer: string | null };

const ORDER: Record<Sort, string> = {
  hot: orderBySql(TOPIC_ORDERS.hot, 't'),
  new: orderBySql(TOPIC_ORDERS.new, 't'),
  top: orderBySql(TOPIC_ORDERS.top, 't'),
};

/** How long (ms) and for how many queries a search's match count is remembered to choose its plan. */
const MATCH_COUNT_TTL_MS = 5_000;
const MATCH_COUNTS_KEPT = 1_000;

export function createTopicsRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq)
    VALUES (@id, @title, @category, @creator_uid, @created_at, @hot, @seq)
  `);
  const get = db.prepare<{ id: string; viewer: string | null }, TopicRow>(`${SELECT} WHERE t.id = @id`);
  const lists = new Map<string, ReturnType<typeof db.prepare>>();
  const listSql = (sort: Sort, byCategory: boolean) =>
    `${SELECT} WHERE t.deleted = 0 ${byCategory ? 'AND t.category = @category' : ''}
     ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset`;
  const listStatement = (sort: Sort, byCategory: boolean) => {
    const key = `${sort}:${byCategory}`;
    let statement = lists.get(key);
    if (!statement) {
      statement = db.prepare(listSql(sort, byCategory));
      lists.set(key, statement);
    }
    return statement;
  };
  // Search: never rank or decorate every match before the limit. Two plans:
  //  - many matches: walk the sort's index (as the plain list does) and keep the rows whose
  //    pk is in the FTS match set, stopping at the limit (the set is read once, not sorted);
  //  - few matches: sort just the matches' pks by the sort's keys, then join the names and
  //    the viewer's votes for the page only.
  // The choice compares the rows each would touch: the matches against the index rows walked.
  const searchSql = (sort: Sort, byCategory: boolean, plan: 'walk' | 'matches') => {
    const category = byCategory ? 'AND t.category = @category' : '';
    if (plan === 'walk') {
      return `${SELECT} WHERE t.deleted = 0 ${category}
        AND +t.pk IN (SELECT rowid FROM topics_fts WHERE topics_fts MATCH @query)
        ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset`;
    }
    return `${SELECT} WHERE t.pk IN (
        SELECT t.pk FROM topics_fts f JOIN topics t ON t.pk = f.rowid
        WHERE topics_fts MATCH @query AND t.deleted = 0 ${category}
        ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset)
      ORDER BY ${ORDER[sort]}`;
  };
  // A page of topics by pk, in the order given (the title index's answer, title-index.ts). Read as
  // arrays (better-sqlite3's raw mode) and made into rows here: naming 25 columns per row in
  // better-sqlite3 cost more than the row's own read (8 against 5 µs a row at 100,000 topics).
  const byPks = db
    .prepare<{ pks: string; viewer: string | null }, unknown[]>(
      `${SELECT.replace('SELECT t.id,', 'SELECT t.pk, t.id,')} WHERE t.pk IN (SELECT value FROM json_each(@pks))`,
    )
    .raw();
  const columns = byPks.columns().map((column) => column.name);
  if (columns.join() !== TOPIC_ROW_COLUMNS.join())
    throw new Error(`topicRowOf reads ${TOPIC_ROW_COLUMNS.join()}, SELECT gives ${columns.join()}`);
  const titles = createTitleIndex(db);
  // A search page as the REST answer's JSON, joined from each topic's text kept by its seq: no row
  // object, no toTopic and no JSON.stringify per topic (tests/sync-server/title-index.test.ts compares).
  const pageJson = createTopicPageJson(db, titles.seqOf);
  const rowsInOrder = (pks: number[], viewer: string | null): TopicRow[] => {
    if (pks.length === 0) return [];
    const rows = new Map<number, TopicRow>();
    for (const r of byPks.all({ pks: JSON.stringify(pks), viewer })) rows.set(r[0] as number, topicRowOf(r));
    // Every pk is a live row at the version the index answered for (seqs commit in order).
    return pks.flatMap((pk) => rows.get(pk) ?? []);
  };
  /** A search page's pks from the title index; undefined inside a transaction (its rows may roll back) or before it is built. */
  const indexedPage = (query: SearchQuery): number[] | undefined =>
    db.inTransaction ? undefined : titles.search({ ...query, words: ftsQueryWords(query.match) }, topicsVersion.get()!.v ?? 0);
  const searches = new Map<string, ReturnType<typeof db.prepare>>();
  const searchStatement = (sort: Sort, byCategory: boolean, plan: 'walk' | 'matches') => {
    const key = `${sort}:${byCategory}:${plan}`;
    let statement = searches.get(key);
    if (!statement) {
      statement = db.prepare(searchSql(sort, byCategory, plan));
      searches.set(key, statement);
    }
    return statement;
  };
  // The pages of the lists and title searches, kept while no topic changes (page-cache.ts).
  const topicsVersion = db.prepare<[], { v: number | null }>(LAST_TOPIC_SEQ.sqlite);
  const pages = createPageCache<TopicRow>(LIST_PAGES_KEPT);
  const cachedList = (key: string, read: () => TopicRow[]): TopicRow[] => {
    if (db.inTransaction) return read();
    const version = topicsVersion.get()!.v ?? 0;
    const kept = pages.read(version, key);
    if (kept) return kept;
    const rows = read();
    pages.keep(version, key, rows);
    return rows.slice();
  };
  const matchCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM topics_fts WHERE topics_fts MATCH ?');
  const topicRows = db.prepare<[], { n: number | null }>('SELECT max(pk) AS n FROM topics');
  /** Walking an index row costs about this fraction of looking a match's row up by pk. */
  const WALK_COST = 0.25;
  // How many titles a search matches only steers the choice of plan (both answer the same rows),
  // so it is remembered for a few seconds per query instead of reading the FTS doclist a second
  // time on every search (that count was a fifth to a third of a search's time).
  const counted = new Map<string, { n: number; at: number }>();
  const countMatches = (match: string): number => {
    const now = Date.now();
    const known = counted.get(match);
    if (known && now - known.at < MATCH_COUNT_TTL_MS) return known.n;
    const n = matchCount.get(match)!.n;
    counted.delete(match);
    counted.set(match, { n, at: now });
    if (counted.size > MATCH_COUNTS_KEPT) counted.delete(counted.keys().next().value!);
    return n;
  };
  const searchPlan = (match: string, wanted: number): 'walk' | 'matches' => {
    const matches = countMatches(match);
    if (matches === 0) return 'matches';
    const rows = topicRows.get()!.n ?? 0;
    // A walk stops after about wanted × rows / matches index rows (matches spread evenly).
    return (wanted * rows * WALK_COST) / matches < matches ? 'walk' : 'matches';
  };
  const counts = db.prepare<
    { id: string },
    Pick<TopicRow, 'score' | 'responses_count' | 'responses_for' | 'responses_against' | 'responses_neutral'>
  >(TOPIC_COUNTS.sqlite);
  // Maintained counters: a write adds its difference instead of recounting the topic,
  // and the stored hot score follows in the same statement (one row write, not two).
  db.function('crux_hot_score', { deterministic: true }, (score, responses, createdAt) =>
    hotScore(Number(score), Number(responses), String(createdAt)),
  );
  const addToCounts = db.prepare<{ id: string; score: number; responses: number; seq: number } & Record<`${ResponseType}s`, number>>(`
    UPDATE topics SET score = score + @score, responses_count = responses_count + @responses, seq = @seq,
                      responses_for = responses_for + @fors, responses_against = responses_against + @againsts,
                      responses_neutral = responses_neutral + @neutrals,
                      hot = crux_hot_score(score + @score, responses_count + @responses, created_at)
    WHERE id = @id
  `);
  // The same for a response created or deleted (score unchanged): score is not SET, because SQLite
  // rewrites the entries of every index on a column an UPDATE sets, changed or not, and topics_top and
  // topics_category_top (score first) would be two more random pages per create.
  const addResponseCounts = db.prepare<{ id: string; responses: number; seq: number } & Record<`${ResponseType}s`, number>>(`
    UPDATE topics SET responses_count = responses_count + @responses, seq = @seq,
                      responses_for = responses_for + @fors, responses_against = responses_against + @againsts,
                      responses_neutral = responses_neutral + @neutrals,
                      hot = crux_hot_score(score, responses_count + @responses, created_at)
    WHERE id = @id
  `);
  const writeAggregates = db.prepare(`
    UPDATE topics SET score = @score, responses_count = @responses_count, responses_for = @responses_for,
           responses_against = @responses_against, responses_neutral = @responses_neutral, hot = @hot, seq = @seq
    WHERE id = @id
  `);
  // A deleted topic keeps its row (its tombstone replicates) but not its title: REST
  // already answers 404, and nothing else may serve what the author took back.
  const softDelete = db.prepare<[number, string]>("UPDATE topics SET deleted = 1, title = '', seq = ? WHERE id = ?");
  const restamp = db.prepare<[number, string]>(RESTAMP_TOPICS_OF.sqlite);
  const stanceCounts = db.prepare<[string], StanceCounts>(STANCE_COUNTS.sqlite);
  const storedStanceCounts = db.prepare<[string], StanceCounts>(TOPIC_STANCE_COUNTERS.sqlite);
  const writeStanceCounts = db.prepare<StanceCounts & { id: string; seq: number }>(SET_STANCE_COUNTERS.sqlite);
  // New-account limit and spam check: the author's recent topics, by topics_creator_time.
  const createdSince = db.prepare<[string, string], { n: number }>(TOPICS_CREATED_SINCE.sqlite);
  const recentTitles = db.prepare<[string, string, number], { title: string }>(RECENT_TOPIC_TITLES.sqlite);
  const changes = db.prepare<{ seq: number; id: string; limit: number; viewer: string | null }, TopicRow>(`
    ${SELECT} WHERE (t.seq > @seq OR (t.seq = @seq AND t.id > @id)) ORDER BY t.seq, t.id LIMIT @limit
  `);

  return {
    ...createTopicJsonPages(db),
    insert: (row: TopicInsert) => insert.run({ ...row, hot: hotScore(0, 0, row.created_at) }),
    get: (id: string, viewer: string | null) => get.get({ id, viewer }),
    list: (query: { sort: Sort; category?: string | undefined; limit: number; offset: number; viewer: string | null }) =>
      cachedList(
        JSON.stringify([query.sort, query.category ?? null, query.limit, query.offset, query.viewer]),
        () =>
          listStatement(query.sort, query.category !== undefined).all({
            viewer: query.viewer,
            category: query.category ?? null,
            limit: query.limit,
            offset: query.offset,
          }) as TopicRow[],
      ),
    listVersion: () => topicsVersion.get()!.v ?? 0,
    searchJson(query: SearchQuery) {
      const pks = indexedPage(query);
      return pks && pageJson.page(pks, query.viewer);
    },
    search(query: SearchQuery) {
      // From the title index (outside a transaction, once built): a few tenths of a millisecond, so its
      // pages are not kept as the list's are. Kept, every search word × sort × size a reader varied
      // filled the cache with rows nobody asked for again, which lived long enough to be promoted and
      // made the garbage collector's old-space work most of the allocation (the JSON answer is still
      // kept per version, domain/topics.ts).
      const pks = indexedPage(query);
      if (pks) return rowsInOrder(pks, query.viewer);
      // Until then SQLite's FTS5, its pages kept like the list's (the FTS index changes only with the titles).
      return cachedList(
        JSON.stringify(['search', query.match, query.sort, query.category ?? null, query.limit, query.offset, query.viewer]),
        () =>
          searchStatement(query.sort, query.category !== undefined, searchPlan(query.match, query.offset + query.limit)).all({
            query: query.match,
            viewer: query.viewer,
            category: query.category ?? null,
            limit: query.limit,
            offset: query.offset,
          }) as TopicRow[],
      );
    },
    /** Resolves once the in-memory title index is built (tests: until then a search is SQLite's). */
    titleIndexReady: () => titles.ready(),
    /**
     * Adds to the stored score and response count (a vote, a response created or deleted),
     * recomputes the stored hot score and stamps a new seq: O(1) in the topic's size.
     */
    addToCounts(id: string, delta: TopicCountsDelta, seq: number) {
      const fors = delta.responses?.for ?? 0;
      const againsts = delta.responses?.against ?? 0;
      const neutrals = delta.responses?.neutral ?? 0;
      const responses = fors + againsts + neutrals;
      const score = delta.score ?? 0;
      if (score === 0) addResponseCounts.run({ id, responses, fors, againsts, neutrals, seq });
      else addToCounts.run({ id, score, responses, fors, againsts, neutrals, seq });
    },
    /** Recounts score and responses, restores the stored hot score and stamps a new seq (repairs and tests). */
    refreshAggregates(id: string, createdAt: string, seq: number) {
      const recounted = counts.get({ id })!;
      writeAggregates.run({ id, ...recounted, hot: hotScore(recounted.score, recounted.responses_count, createdAt), seq });
    },
    /** Recounts the stance counters; when they changed, stamps a new seq (they replicate) and returns true. */
    async refreshStanceCounts(id: string, seq: () => Promise<number>): Promise<boolean> {
      const counted = stanceCounts.get(id)!;
      const stored = storedStanceCounts.get(id);
      if (!stored || JSON.stringify(stored) === JSON.stringify(counted)) return false;
      writeStanceCounts.run({ ...counted, id, seq: await seq() });
      return true;
    },
    softDelete: (id: string, seq: number) => softDelete.run(seq, id),
    /** Stamps a new seq on every topic of the creator (their name changed: devices pull it again). */
    restampCreator: (uid: string, seq: number) => restamp.run(seq, uid).changes,
    /** SQLite's query plan of a list, so tests can check it is an index scan. */
    listPlan: (sort: Sort, byCategory: boolean): string[] =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${listSql(sort, byCategory)}`).all({
          viewer: 'x',
          category: 'Science',
          limit: 20,
          offset: 0,
        }) as { detail: string }[]
      ).map((row) => row.detail),
    /** SQLite's query plan of a search (either plan), so tests can check it neither sorts nor decorates every match. */
    searchPlan: (sort: Sort, byCategory: boolean, plan: 'walk' | 'matches'): string[] =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${searchSql(sort, byCategory, plan)}`).all({
          viewer: 'x',
          query: '"energy"*',
          category: 'Science',
          limit: 20,
          offset: 0,
        }) as { detail: string }[]
      ).map((row) => row.detail),
    changesSince: (checkpoint: { seq: number; id: string }, limit: number, viewer: string | null) =>
      changes.all({ ...checkpoint, limit, viewer }),
    countCreatedSince: (uid: string, sinceIso: string) => createdSince.get(uid, sinceIso)!.n,
    recentTitles: (uid: string, sinceIso: string, limit: number) => recentTitles.all(uid, sinceIso, limit).map((row) => row.title),
  };
}
