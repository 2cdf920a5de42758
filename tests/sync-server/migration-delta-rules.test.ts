// The Δ rules' migration (issue 25; SQLite 006-delta-rules.sql, PostgreSQL 002-delta-rules.sql) on
// credits given before it: each credit is decided from what is stored (a change the server saw, a
// response written before it, a creditor with standing then) and each author's persuasion points
// are recounted once — one per creditor and topic — and restamped. Runs on the test engine (the
// server-pg lane: PostgreSQL); running the recount again changes nothing. On SQLite also a real
// upgrade: a database migrated to 005 with these rows, then migrated to the latest.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../sync-server/src/store/sqlite/migrate.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { TEST_ENGINE } from '../fixtures/test-db.js';

const migrationSql = (engine: 'sqlite' | 'postgres') =>
  readFileSync(
    fileURLToPath(
      new URL(
        engine === 'sqlite'
          ? '../../sync-server/src/store/sqlite/migrations/006-delta-rules.sql'
          : '../../sync-server/src/store/pg/migrations/002-delta-rules.sql',
        import.meta.url,
      ),
    ),
    'utf8',
  );

/** The migration's statements that rewrite rows (its ALTERs already ran on a migrated database). */
const recountStatements = (sql: string) =>
  sql
    .replace(/^--.*$/gm, '')
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement && !/^ALTER TABLE/i.test(statement));

const at = (day: number, hour = 0) => `2026-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const history = (...entries: [string, string][]) => JSON.stringify(entries.map(([stance, time]) => ({ stance, at: time })));

/**
 * Credits as the code before issue 25 recorded them, all counting: 8 (creditor, response) pairs, so
 * 40 persuasion points for the author. The rule now: 2 (ok in t1 once, ok in t4).
 */
const FIXTURE: [string, ...unknown[]][] = [
  ["INSERT INTO users (uid, display_name, created_at, points, persuasion_points, seq) VALUES ('author', 'Author', ?, 42, 40, 1)", at(1)],
  ["INSERT INTO users (uid, display_name, created_at, points, seq) VALUES ('ok', 'Has standing', '2026-01-01T00:00:00.000Z', 10, 1)"],
  ["INSERT INTO users (uid, display_name, created_at, points, seq) VALUES ('new', 'Too new', ?, 10, 1)", at(9)],
  ["INSERT INTO users (uid, display_name, created_at, points, seq) VALUES ('poor', 'No points', '2026-01-01T00:00:00.000Z', 0, 1)"],
  ...['t1', 't2', 't3', 't4'].map((id): [string, ...unknown[]] => [
    "INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq) VALUES (?, 'A question', 'Science', 'author', ?, 0, 1)",
    id,
    at(1),
  ]),
  ...(
    [
      ['r1', 't1', at(1)],
      ['r2', 't1', at(1)],
      ['r3', 't1', at(2, 12)],
      ['r4', 't2', at(1)],
      ['r5', 't3', at(4)],
      ['r6', 't4', at(1)],
    ] as const
  ).map(([id, topic, time]): [string, ...unknown[]] => [
    "INSERT INTO responses (id, topic_id, type, content, creator_uid, created_at, updated_at, seq) VALUES (?, ?, 'for', 'A reason', 'author', ?, ?, 1)",
    id,
    topic,
    time,
    time,
  ]),
  ...(
    [
      // Two changes the server saw, credited r1 and r2, then r3 (written before the second change).
      ['ok', 't1', 'agree', history(['agree', at(1)], ['disagree', at(2)], ['agree', at(3)])],
      // A first push with an offline "before": both entries share their time.
      ['ok', 't2', 'disagree', history(['agree', at(5)], ['disagree', at(5)])],
      // r5 was written after this change.
      ['ok', 't3', 'disagree', history(['agree', at(1)], ['disagree', at(2)])],
      ['ok', 't4', 'disagree', history(['agree', at(9)], ['disagree', at(10)])],
      ['new', 't4', 'disagree', history(['agree', at(9)], ['disagree', at(10)])],
      ['poor', 't4', 'disagree', history(['agree', at(9)], ['disagree', at(10)])],
    ] as const
  ).map(([uid, topic, stance, changes]): [string, ...unknown[]] => [
    "INSERT INTO stances (uid, topic_id, stance, first_stance, history, credits, updated_at, seq) VALUES (?, ?, ?, 'agree', ?, '[]', ?, 1)",
    uid,
    topic,
    stance,
    changes,
    at(10),
  ]),
  ...(
    [
      ['ok', 't1', 1, 'r1', at(2)],
      ['ok', 't1', 1, 'r2', at(2)],
      ['ok', 't1', 2, 'r3', at(3)],
      ['ok', 't2', 1, 'r4', at(5)],
      ['ok', 't3', 1, 'r5', at(5)],
      ['ok', 't4', 1, 'r6', at(10)],
      ['new', 't4', 1, 'r6', at(10)],
      ['poor', 't4', 1, 'r6', at(10)],
    ] as const
  ).map(([uid, topic, change, response, time]): [string, ...unknown[]] => [
    "INSERT INTO deltas (uid, topic_id, change_no, response_id, author_uid, created_at) VALUES (?, ?, ?, ?, 'author', ?)",
    uid,
    topic,
    change,
    response,
    time,
  ]),
];

const EXPECTED_COUNTS = [
  { uid: 'new', topic_id: 't4', response_id: 'r6', counts: 0 },
  { uid: 'ok', topic_id: 't1', response_id: 'r1', counts: 1 },
  { uid: 'ok', topic_id: 't1', response_id: 'r2', counts: 1 },
  { uid: 'ok', topic_id: 't1', response_id: 'r3', counts: 1 },
  { uid: 'ok', topic_id: 't2', response_id: 'r4', counts: 0 },
  { uid: 'ok', topic_id: 't3', response_id: 'r5', counts: 0 },
  { uid: 'ok', topic_id: 't4', response_id: 'r6', counts: 1 },
  { uid: 'poor', topic_id: 't4', response_id: 'r6', counts: 0 },
];
const COUNTS_QUERY = 'SELECT uid, topic_id, response_id, counts FROM deltas ORDER BY uid, topic_id, response_id';

describe('migration: Δ credits recounted by the issue 25 rules', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('decides each stored credit, recounts and restamps the authors whose points move, and is idempotent', async () => {
    const { db } = server;
    for (const [sql, ...params] of FIXTURE) await db.run(sql, ...params);
    const seqBefore = await db.seq();
    const run = async () => {
      for (const statement of recountStatements(migrationSql(db.engine))) await db.run(statement);
    };
    await run();
    expect(await db.rows(COUNTS_QUERY)).toEqual(EXPECTED_COUNTS);
    expect(await db.rows("SELECT topic_id, credit_from FROM stances WHERE uid = 'ok' ORDER BY topic_id")).toEqual([
      { topic_id: 't1', credit_from: 1 },
      { topic_id: 't2', credit_from: 2 },
      { topic_id: 't3', credit_from: 1 },
      { topic_id: 't4', credit_from: 1 },
    ]);
    const author = await db.row<{ points: number; persuasion_points: number; seq: number }>(
      "SELECT points, persuasion_points, seq FROM users WHERE uid = 'author'",
    );
    expect(author).toMatchObject({ persuasion_points: 10, points: 12 });
    expect(author!.seq).toBeGreaterThan(seqBefore);
    // Nobody else moved: their seq stays.
    expect(await db.rows("SELECT uid, seq FROM users WHERE uid IN ('ok', 'new', 'poor') ORDER BY uid")).toEqual([
      { uid: 'new', seq: 1 },
      { uid: 'ok', seq: 1 },
      { uid: 'poor', seq: 1 },
    ]);

    // Again: nothing changes (the migration runs once, and its recount is a recomputation).
    await run();
    expect(await db.rows(COUNTS_QUERY)).toEqual(EXPECTED_COUNTS);
    expect(await db.row("SELECT points, persuasion_points, seq FROM users WHERE uid = 'author'")).toEqual(author);
  });

  it.skipIf(TEST_ENGINE !== 'sqlite')('SQLite: a database at 005 with those credits, migrated to the latest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-m006-'));
    try {
      const db = new Database(join(dir, 'crux.sqlite'));
      db.pragma('foreign_keys = ON');
      migrate(
        db,
        loadMigrations().filter((m) => m.version < 6),
      );
      for (const [sql, ...params] of FIXTURE) db.prepare(sql).run(...params);
      expect(migrate(db)).toBe(Math.max(...loadMigrations().map((m) => m.version)));
      expect(db.prepare(COUNTS_QUERY).all()).toEqual(EXPECTED_COUNTS);
      expect(db.prepare("SELECT points, persuasion_points FROM users WHERE uid = 'author'").get()).toEqual({
        points: 12,
        persuasion_points: 10,
      });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
