// Cheap reads on PostgreSQL: a user's page (GET /api/users/{uid}) and a topic's stance totals
// (GET /api/topics/{id}/stances) read as many rows however much the user wrote or the topic holds
// (SQLite's plans: query-plans.test.ts). Every statement the two calls run is recorded (text and
// arguments) and run again under EXPLAIN ANALYZE: the rows each plan node read from responses and
// topics (returned, and removed by a filter, times its loops) stay within one page for a user with
// several pages of topics and responses, and no node sorts all it read. Full scans and full sorts
// are switched off for the look (enable_seqscan, enable_bitmapscan, enable_sort), as a table the
// size of production's makes the planner choose: on a few hundred rows a scan and a sort are
// cheaper, and nothing would show whether an index can serve the order (with no such index the
// planner still sorts, switched off or not). A control drops the user-page indexes in a
// transaction, leaving the plain creator indexes there were before, and sees the check fail.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import { topicStances } from '../../sync-server/src/domain/common-ground.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser, USER_PAGE_ITEMS, userProfile } from '../../sync-server/src/domain/users.js';
import { createPgStore, type PgStore } from '../../sync-server/src/store/pg/store.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

const TOPICS = 4 * USER_PAGE_ITEMS;
const RESPONSES = 6 * USER_PAGE_ITEMS;
const BIG_TABLES = ['responses', 'topics'];

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}
type Statement = { text: string; values: unknown[] };

let server: Postgres;
let store: PgStore;
let client: pg.Client;
let ctx: DomainContext;
let topicId = '';

/** The statements `call` runs through the store's connections (pg.Client's query, text and arguments). */
async function statementsOf(call: () => Promise<unknown>): Promise<Statement[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const saved = proto.query;
  const ran: Statement[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    const values = Array.isArray(second) ? second : ((first as { values?: unknown[] } | undefined)?.values ?? []);
    if (text && /^\s*SELECT\b/i.test(text)) ran.push({ text, values });
    return saved.apply(this, args);
  };
  try {
    await call();
  } finally {
    proto.query = saved;
  }
  return ran;
}

/** What each statement's plan read from the big tables, and whether it sorted, as run now on `on`. */
async function readsOf(on: pg.Client, statements: Statement[]) {
  const reads: { text: string; table: string; rows: number }[] = [];
  const sorts: string[] = [];
  for (const { text, values } of statements) {
    const { rows } = await on.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
    const walk = (node: PlanNode) => {
      // A full sort reads all its input first; an incremental one (over an index already in the
      // first key's order) reads only up to the limit, as the read rows below show.
      if (node['Node Type'] === 'Sort') sorts.push(`${text}\n${JSON.stringify(rows[0]!['QUERY PLAN'][0].Plan)}`);
      const table = node['Relation Name'];
      if (table && BIG_TABLES.includes(table)) {
        const read = node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
        reads.push({ text, table, rows: read * node['Actual Loops'] });
      }
      node.Plans?.forEach(walk);
    };
    walk(rows[0]!['QUERY PLAN'][0].Plan);
  }
  return { reads, sorts };
}

beforeAll(async () => {
  server = await startPostgres();
  store = await createPgStore({ connectionString: server.url, max: 3 });
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  ctx = { store, clock: () => new Date((ms += 1000)), newId: () => `plan-${String(++ids).padStart(6, '0')}`, changes: createChangeFeed() };
  const ada = { uid: 'ada', name: 'Ada', email: null };
  const bob = { uid: 'bob', name: 'Bob', email: null };
  await rememberUser(ctx, ada);
  await rememberUser(ctx, bob);
  // Ada: more than a page of topics and several of responses, Bob's around them (twice as many
  // topics: the newest topics of everyone are no shorter a way to hers than her own index).
  for (let i = 0; i < TOPICS; i++) {
    topicId = (await createTopic(ctx, i % 3 ? bob : ada, { title: `Plan topic ${i}`, categories: ['Science'] })).id;
  }
  for (let i = 0; i < RESPONSES; i++) {
    const author = i % 3 === 2 ? bob : ada;
    await createResponse(ctx, author, { topic_id: topicId, type: (['for', 'against', 'neutral'] as const)[i % 3]!, content: `Said ${i}` });
  }
  await client.query('ANALYZE');
  await client.query('SET enable_seqscan = off');
  await client.query('SET enable_bitmapscan = off');
  await client.query('SET enable_sort = off');
}, 120_000);

afterAll(async () => {
  await client?.end();
  await store?.close();
  await server?.stop();
});

describe("a user's page and a topic's stance totals on PostgreSQL", () => {
  it(`GET /api/users/{uid}: reads at most one page (${USER_PAGE_ITEMS}) of a user's topics and responses, sorts none of it`, async () => {
    const statements = await statementsOf(() => userProfile(ctx, 'ada'));
    const profile = await userProfile(ctx, 'ada');
    expect(profile.topics).toHaveLength(USER_PAGE_ITEMS);
    expect(profile.responses).toHaveLength(USER_PAGE_ITEMS);
    const { reads, sorts } = await readsOf(client, statements);
    expect(sorts).toEqual([]);
    expect(reads.map((read) => read.table).sort()).toEqual(expect.arrayContaining(['responses', 'topics']));
    for (const read of reads) expect(read.rows, `${read.table} in ${read.text}`).toBeLessThanOrEqual(USER_PAGE_ITEMS);

    // The control: with only the plain creator indexes, the same statements read all the user wrote and sort it.
    await client.query('BEGIN');
    try {
      for (const index of ['responses_creator_new', 'topics_creator_new', 'responses_creator_time', 'topics_creator_time']) {
        await client.query(`DROP INDEX ${index}`);
      }
      const without = await readsOf(client, statements);
      // Each of the two lists is then read whole (a full sort of the user's rows, or a walk of everyone's newest past them).
      const whole = without.reads.filter((read) => read.rows > USER_PAGE_ITEMS || without.sorts.some((sort) => sort.startsWith(read.text)));
      expect(new Set(whole.map((read) => read.text)).size, JSON.stringify(without.reads)).toBe(2);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it(`GET /api/topics/{id}/stances: reads the topic's row only (its ${RESPONSES} responses are not read)`, async () => {
    const statements = await statementsOf(() => topicStances(ctx, topicId));
    expect(statements.length).toBeGreaterThan(0);
    const stances = await topicStances(ctx, topicId);
    expect(stances.responses).toEqual({ for: RESPONSES / 3, against: RESPONSES / 3, neutral: RESPONSES / 3 });
    const { reads, sorts } = await readsOf(client, statements);
    expect(sorts).toEqual([]);
    expect(reads.filter((read) => read.table === 'responses')).toEqual([]);
    for (const read of reads) expect(read.rows, `${read.table} in ${read.text}`).toBeLessThanOrEqual(1);
  });
});

// The write budgets (docs/BENCHMARKS.md): migration 011 drops responses_topic, responses_creator and the unread
// responses_seq, which every create wrote; the statements that read a topic's responses or a creator's now walk
// responses_topic_seq and responses_creator_time (the indexes that begin the same way).
/** The indexes the statement's plan reads `table` by; every read of it must be an index scan. */
async function indexesOn(table: string, { text, values }: Statement): Promise<string[]> {
  const plan = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
  const used: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] === table) {
      expect(node['Node Type'], text).toMatch(/Index/);
      used.push(node['Index Name']!);
    }
    node.Plans?.forEach(walk);
  };
  walk(plan.rows[0]!['QUERY PLAN'][0].Plan);
  return used;
}

describe('migration 011 on PostgreSQL: the dropped response indexes', () => {
  it("are gone, and a topic's and a creator's reads still walk an index", async () => {
    const { rows } = await client.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'responses'");
    const names = rows.map((row) => row.indexname);
    expect(names).not.toContain('responses_topic');
    expect(names).not.toContain('responses_creator');
    expect(names).not.toContain('responses_seq');
    expect(names).toEqual(expect.arrayContaining(['responses_topic_seq', 'responses_creator_time']));

    const statements = await statementsOf(async () => {
      await store.responses.liveIdsOfTopic(topicId);
      await store.responses.countByType(topicId);
      await store.responses.stanceTallies(topicId);
      await store.users.participantsNamed(topicId, ['Ada']);
    });
    expect(statements.length).toBeGreaterThanOrEqual(4);
    const used: string[] = [];
    for (const statement of statements) used.push(...(await indexesOn('responses', statement)));
    expect(used).toEqual(expect.arrayContaining(['responses_topic_seq']));
  });
});

// At every start the opinion-groups job reads which topics had response votes in the last day;
// migration 012 indexes the responses' votes by time so that is a range, not every vote.
describe('migration 012 on PostgreSQL: the grouping job start reads a range of votes', () => {
  it('walks votes_response_updated', async () => {
    const statements = await statementsOf(() => store.groups.votedSince(new Date(Date.UTC(2026, 0, 1)).toISOString()));
    expect(statements.length).toBe(1);
    expect(await indexesOn('votes', statements[0]!)).toEqual(['votes_response_updated']);
  });
});

// Migration 018 on PostgreSQL: a topic's responses in their order with the parent (SQLite's 022), for a
// page of mappings read from the index rather than a sort of the topic, in place of responses_topic_root.
describe('migration 018 on PostgreSQL: a page of mappings or roots walks responses_topic_order', () => {
  it('reads both pages by the index, with no sort; responses_topic_root is gone', async () => {
    const { rows } = await client.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'responses'");
    const names = rows.map((row) => row.indexname);
    expect(names).toContain('responses_topic_order');
    expect(names).not.toContain('responses_topic_root');
    const statements = await statementsOf(async () => {
      await store.responses.mappingsPage(topicId, null, 5000);
      await store.responses.rootsPage(topicId, null, null, 1000);
    });
    const used: string[] = [];
    for (const statement of statements.filter((s) => /FROM responses r/.test(s.text)))
      used.push(...(await indexesOn('responses', statement)));
    expect(used.filter((name) => name === 'responses_topic_order').length).toBeGreaterThanOrEqual(2);
    const { sorts } = await readsOf(client, statements);
    expect(sorts).toEqual([]);
  });
});
