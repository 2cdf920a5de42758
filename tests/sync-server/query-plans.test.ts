// The hot score is stored and indexed so that every list is an
// index scan, never a sort of the whole table.
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { loadMigrations, migrate } from '../../sync-server/src/store/sqlite/migrate.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { SORTS } from '../../shared/constants.js';
import { hotScore } from '../../shared/rules/hot.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import { topicStances } from '../../sync-server/src/domain/common-ground.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser, userProfile } from '../../sync-server/src/domain/users.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-plan-'));
const db = openDatabase(join(dir, 'crux.sqlite'));
const store = createStore(db);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('topic list query plans', () => {
  it.each(
    SORTS.flatMap(
      (sort) =>
        [
          [sort, false],
          [sort, true],
        ] as const,
    ),
  )('%s (by category: %s) walks an index', async (sort, byCategory) => {
    const plan = await store.topics.listPlan(sort, byCategory);
    const topicsStep = plan.find((step) => /\bt\b/.test(step) && /topics|USING INDEX/.test(step))!;
    expect(topicsStep).toMatch(byCategory ? `topics_category_${sort}` : `topics_${sort}`);
    expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
  });
});

// A user's page and a topic's stance totals cost the same however much the user wrote
// or the topic holds. Every statement the call runs is recorded (with its arguments) and explained:
// a user's newest topics and responses are index range scans in order (no sort of all they wrote),
// and the stance totals read the topic's stored counts (no pass over its responses).
describe("a user's page and a topic's stance totals are O(1) in its size", () => {
  type Statement = ReturnType<typeof db.prepare>;
  async function statementsOf(call: () => Promise<unknown>): Promise<{ source: string; args: unknown[] }[]> {
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<
      'get' | 'all' | 'run' | 'iterate',
      (...args: unknown[]) => unknown
    >;
    const ran: { source: string; args: unknown[] }[] = [];
    const saved = { get: proto.get, all: proto.all, run: proto.run, iterate: proto.iterate };
    for (const name of ['get', 'all', 'run', 'iterate'] as const) {
      proto[name] = function (this: Statement, ...args: unknown[]) {
        ran.push({ source: this.source, args });
        return saved[name].apply(this, args);
      };
    }
    try {
      await call();
    } finally {
      Object.assign(proto, saved);
    }
    return ran;
  }
  const plansOf = (ran: { source: string; args: unknown[] }[]) =>
    ran.map(({ source, args }) => ({
      source,
      plan: (db.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...args) as { detail: string }[]).map((step) => step.detail),
    }));

  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  const ctx: DomainContext = {
    store,
    clock: () => new Date((ms += 1000)),
    newId: () => `plan-${++ids}`,
    changes: createChangeFeed(),
  };
  const ada = { uid: 'ada', name: 'Ada', email: null };
  let topicId = '';

  it('seeds a prolific user', async () => {
    await rememberUser(ctx, ada);
    for (let i = 0; i < 5; i++) topicId = (await createTopic(ctx, ada, { title: `Plan topic ${i}`, categories: ['Science'] })).id;
    for (let i = 0; i < 120; i++) {
      await createResponse(ctx, ada, { topic_id: topicId, type: (['for', 'against', 'neutral'] as const)[i % 3]!, content: `Said ${i}` });
    }
    db.exec('ANALYZE');
  });

  it('GET /api/users/{uid}: the newest topics and responses are index range scans, nothing is sorted', async () => {
    const plans = plansOf(await statementsOf(() => userProfile(ctx, 'ada')));
    const all = plans.flatMap(({ plan }) => plan);
    expect(all.join(' | ')).not.toMatch(/TEMP B-TREE/);
    expect(all.filter((step) => /^SCAN (r|t|responses|topics)\b/.test(step))).toEqual([]);
    expect(all.join(' | ')).toMatch(/responses_creator_new/);
    expect(all.join(' | ')).toMatch(/topics_creator_new/);
  });

  // At every start the opinion-groups job reads which topics had response votes in the last
  // day. Asked for distinct topics in order, SQLite walked every vote by votes_topic (2.8–3.1 s with
  // 2,000,000 votes); now a range of votes_response_updated (migration 016).
  it("the grouping job's start reads a range of the last day's response votes, not every vote", async () => {
    const since = new Date(ms - 24 * 60 * 60 * 1000).toISOString();
    const ran = await statementsOf(() => store.groups.votedSince(since));
    expect(ran).toHaveLength(1);
    const plan = plansOf(ran)[0]!.plan;
    expect(plan.join(' | ')).toMatch(/SEARCH votes USING INDEX votes_response_updated \(updated_at>\?\)/);
  });

  it('GET /api/topics/{id}/stances: reads no response row', async () => {
    const plans = plansOf(await statementsOf(() => topicStances(ctx, topicId)));
    expect(plans.length).toBeGreaterThan(0);
    for (const { source, plan } of plans) {
      expect(source).not.toMatch(/\bFROM responses\b/);
      expect(plan.join(' | ')).not.toMatch(/\bresponses\b/);
    }
  });
});

// The write budgets (docs/BENCHMARKS.md): migration 015 drops three indexes every create wrote: two the leading
// column of another index on responses (responses_topic of responses_topic_seq, responses_creator of
// responses_creator_time), and responses_seq, which no statement reads. Every statement the store prepares is explained on a database at 014 and
// again after 015: the statements that used a dropped index are there, and each of them (and every
// other statement) keeps the same plan with the longer index in its place: no table scan, no sort
// that was not there before.
describe('migration 015: the dropped response indexes leave every plan on an index', () => {
  const REPLACED: Record<string, string> = { responses_topic: 'responses_topic_seq', responses_creator: 'responses_creator_time' };

  /** The SQL of every statement createStore prepares on `database` (which also gets the store's SQL functions). */
  function storeStatements(database: Database.Database): string[] {
    const prepare = database.prepare.bind(database);
    const sources = new Set<string>();
    database.prepare = (source: string) => {
      sources.add(source);
      return prepare(source);
    };
    try {
      createStore(database);
    } finally {
      database.prepare = prepare;
    }
    return [...sources];
  }

  /** EXPLAIN QUERY PLAN of `source` with every parameter NULL (named ones by name, then as many `?` as it takes). */
  function planOf(database: Database.Database, source: string): string[] {
    const statement = database.prepare(`EXPLAIN QUERY PLAN ${source}`);
    const names = Object.fromEntries([...source.matchAll(/[@$:]([A-Za-z_]\w*)/g)].map((match) => [match[1]!, null]));
    const named = Object.keys(names).length > 0 ? [names] : [];
    for (let positional = 0; positional <= 20; positional++) {
      try {
        const rows = statement.all(...Array<null>(positional).fill(null), ...named) as { detail: string }[];
        return rows.map((row) => row.detail);
      } catch (error) {
        if (!/Too few parameter/.test((error as Error).message)) throw error;
      }
    }
    throw new Error(`could not bind the parameters of ${source}`);
  }

  it('are gone; every statement that used responses_topic or responses_creator uses the index that begins the same way, none used responses_seq', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'crux-plan-015-'));
    try {
      const old = new Database(join(scratch, 'crux.sqlite'));
      old.pragma('foreign_keys = ON');
      expect(
        migrate(
          old,
          loadMigrations().filter((m) => m.version < 15),
        ),
      ).toBe(14);
      // The columns and tables the migrations after 016 add, which today's statements read (the vote's
      // value, edit history, deleted accounts, disagrees by side), so they prepare on a database at
      // 014; none of them adds an index, so no plan moves for them. 022 changes indexes only (no column
      // a statement reads): its plans are the next test's.
      for (const later of loadMigrations().filter((m) => m.version > 16 && m.version !== 22)) {
        expect(later.sql).not.toMatch(/CREATE\s+(UNIQUE\s+)?INDEX/i);
        old.exec(later.sql);
      }
      const sources = storeStatements(old);
      expect(sources.length).toBeGreaterThan(100);
      const before = new Map(sources.map((source) => [source, planOf(old, source)]));
      // 015 alone: a later migration's own index may change other plans on purpose (016: the votes by time).
      expect(
        migrate(
          old,
          loadMigrations().filter((m) => m.version <= 15),
        ),
      ).toBe(15);
      const indexes = (
        old.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'responses'").all() as { name: string }[]
      ).map((row) => row.name);
      for (const gone of [...Object.keys(REPLACED), 'responses_seq']) expect(indexes).not.toContain(gone);
      expect(indexes).toEqual(expect.arrayContaining(Object.values(REPLACED)));

      const dropped = new RegExp(`INDEX (${Object.keys(REPLACED).join('|')}) `);
      const users = sources.filter((source) => before.get(source)!.some((step) => dropped.test(step)));
      expect(sources.filter((source) => before.get(source)!.some((step) => /INDEX responses_seq /.test(step)))).toEqual([]);
      // The mention look-up, the recounts, the topic's live ids, stance tallies, a creator's restamp, the mail's reads.
      expect(users.length).toBeGreaterThanOrEqual(8);
      for (const source of sources) {
        const was = before.get(source)!;
        // A step on a dropped index may lose "COVERING" (the partial index held deleted = 0; the longer
        // one reads the row for it: the repairs' recounts), never the index.
        const uncovered = (step: string, index: number) => (dropped.test(was[index]!) ? step.replace('COVERING INDEX', 'INDEX') : step);
        const expected = was.map((step, index) => uncovered(step, index).replace(dropped, (_, name: string) => `INDEX ${REPLACED[name]} `));
        expect({ source, plan: planOf(old, source).map(uncovered) }).toEqual({ source, plan: expected });
      }
      old.close();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

// Migration 022: a topic's responses in their order (created_at, id) with the parent, for the mappings'
// pages, in place of responses_topic_root (roots only). The store's own statements, on the current schema.
describe('migration 022: a page of mappings or roots is read in index order, never sorted', () => {
  /** EXPLAIN QUERY PLAN of every statement on responses that `call` runs, with its own arguments. */
  async function planOfCall(call: () => Promise<unknown>): Promise<string> {
    type Run = (...args: unknown[]) => unknown;
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as { all: Run; get: Run };
    const saved = { all: proto.all, get: proto.get };
    const ran: { source: string; args: unknown[] }[] = [];
    for (const method of ['all', 'get'] as const)
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        ran.push({ source: this.source, args });
        return saved[method].apply(this, args);
      };
    try {
      await call();
    } finally {
      Object.assign(proto, saved);
    }
    return ran
      .filter((r) => /FROM responses r/.test(r.source))
      .flatMap((r) => (db.prepare(`EXPLAIN QUERY PLAN ${r.source}`).all(...r.args) as { detail: string }[]).map((row) => row.detail))
      .join(' | ');
  }

  it('walks responses_topic_order: mappings from the index alone, roots without a sort; responses_topic_root is gone', async () => {
    const indexes = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'responses'").all() as { name: string }[]
    ).map((row) => row.name);
    expect(indexes).toContain('responses_topic_order');
    expect(indexes).not.toContain('responses_topic_root');
    const mappings = await planOfCall(() =>
      store.responses.mappingsPage('t-plan', { created_at: '2026-01-01T00:00:00.000Z', id: 'r' }, 5000),
    );
    expect(mappings).toMatch(/COVERING INDEX responses_topic_order/);
    expect(mappings).not.toMatch(/TEMP B-TREE/);
    const roots = await planOfCall(() => store.responses.rootsPage('t-plan', null, null, 1000));
    expect(roots).toMatch(/INDEX responses_topic_order/);
    expect(roots).not.toMatch(/TEMP B-TREE/);
  });

  it("keeps to the topic's own index with a big site's statistics, where a parent has two replies on average", async () => {
    // sqlite_stat1 as ANALYZE wrote it for the bench's 1,000,000 responses before migration 022 made
    // responses_topic_order (no row for it): responses_parent looks narrow, and "parent IS NULL" (every
    // root of the site) would walk it in time order.
    db.exec('ANALYZE');
    db.prepare("DELETE FROM sqlite_stat1 WHERE tbl = 'responses'").run();
    db.prepare("DELETE FROM sqlite_stat4 WHERE tbl = 'responses'").run();
    const stat = db.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('responses', ?, ?)");
    stat.run('responses_parent', '1000000 2 1 1');
    stat.run('responses_topic_seq', '1000000 10 1 1');
    stat.run('sqlite_autoindex_responses_1', '1000000 1');
    db.exec('ANALYZE sqlite_schema');
    const fresh = createStore(db);
    const pages = [
      await planOfCall(() => fresh.responses.rootsPage('t-plan', null, null, 1000)),
      await planOfCall(() => fresh.responses.roots('t-plan', null)),
      await planOfCall(() => fresh.responses.mappingsPage('t-plan', null, 5000)),
    ];
    for (const plan of pages) {
      expect(plan).toMatch(/INDEX responses_topic_order/);
      expect(plan).not.toMatch(/responses_parent|TEMP B-TREE/);
    }
  });
});

// SQLite rewrites the entries of every index on a column an UPDATE sets, changed or not. A
// response's create or delete changes a topic's response counts, hot score and seq, never its score, so
// its counters statement must not set score: topics_top and topics_category_top (score first) would be
// two more random pages written per create. A vote's (the score changes) does write them.
describe("a response's counters leave the topic's score indexes alone", () => {
  it('the statement a create or delete runs opens no index on score for writing; a vote changes both', async () => {
    const roots = new Map(
      db
        .prepare<[], { name: string; rootpage: number }>(
          "SELECT name, rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'topics'",
        )
        .all()
        .map((row) => [row.rootpage, row.name]),
    );
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as { run: (...args: unknown[]) => unknown };
    const saved = proto.run;
    /** The topic indexes each statement `call` runs opens for writing (EXPLAIN: OpenWrite's root page). */
    async function indexesWritten(call: () => Promise<unknown>): Promise<string[]> {
      const ran: { source: string; args: unknown[] }[] = [];
      proto.run = function (this: { source: string }, ...args: unknown[]) {
        ran.push({ source: this.source, args });
        return saved.apply(this, args);
      };
      try {
        await call();
      } finally {
        proto.run = saved;
      }
      expect(ran).toHaveLength(1);
      const program = db.prepare(`EXPLAIN ${ran[0]!.source}`).all(...(ran[0]!.args as [])) as { opcode: string; p2: number }[];
      return program.filter((step) => step.opcode === 'OpenWrite' && roots.has(step.p2)).map((step) => roots.get(step.p2)!);
    }
    const now = '2026-11-28T02:00:00.000Z';
    let seq = 1_000_000;
    await store.transaction(async () => {
      await store.users.remember({ uid: 'counts', name: 'Counts', email: null }, now, async () => ++seq);
      await store.topics.insert({
        id: 'counts-topic',
        title: 'Counted',
        category: 'Science',
        creator_uid: 'counts',
        created_at: now,
        seq: ++seq,
      });
    });
    const read = () => store.topics.get('counts-topic', null);
    const before = (await read())!;

    const created = await indexesWritten(() => store.topics.addToCounts('counts-topic', { responses: { for: 1 } }, ++seq));
    expect(created).toEqual(expect.arrayContaining(['topics_hot', 'topics_category_hot', 'topics_seq']));
    expect(created).not.toContain('topics_top');
    expect(created).not.toContain('topics_category_top');
    const after = (await read())!;
    expect({ score: after.score, responses: after.responses_count, for: after.responses_for, seq: after.seq }).toEqual({
      score: before.score,
      responses: before.responses_count + 1,
      for: before.responses_for + 1,
      seq,
    });
    expect(after.hot).toBe(hotScore(after.score, after.responses_count, now));

    const voted = await indexesWritten(() => store.topics.addToCounts('counts-topic', { score: 1 }, ++seq));
    expect(voted).toEqual(expect.arrayContaining(['topics_top', 'topics_category_top', 'topics_hot']));
    expect((await read())!.score).toBe(before.score + 1);
  });
});
