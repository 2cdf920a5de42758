// The Δ rules' migration (SQLite 008-delta-rules.sql, PostgreSQL 004-delta-rules.sql) on
// credits given before it: each credit is decided from what is stored (a change the server saw, a
// response written before it, a creditor with standing then) and each author's persuasion points
// are recounted once — one per creditor and topic — and restamped. Runs on the test engine (the
// server-pg lane: PostgreSQL); running the recount again changes nothing. SQLite's real upgrade from
// the migration before: migration-008.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { COUNTS_QUERY, EXPECTED_COUNTS, FIXTURE, migrationSql, recountStatements } from '../fixtures/delta-rules-migration.js';

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
});
