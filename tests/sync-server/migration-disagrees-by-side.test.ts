// The disagrees-by-side migration (SQLite 021-disagrees-by-side.sql, PostgreSQL
// 017-disagrees-by-side.sql) on rows as the code before it left them: disagree votes stored, but no
// count of them on the response. Runs on the test engine (the server-pg lane: PostgreSQL), so both
// files are checked: each response's live disagrees are counted by the voter's stance (the author's own,
// a pass, an agree and a withdrawn disagree on no side), only the responses that have some get a new
// change number, and running it again changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSql, rowStatements } from '../fixtures/migration-sql.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const statements = (engine: 'sqlite' | 'postgres') =>
  rowStatements(migrationSql(engine, { sqlite: '021-disagrees-by-side.sql', postgres: '017-disagrees-by-side.sql' }));

const AT = '2026-03-01T00:00:00.000Z';

describe('migration: disagrees counted by side on each response', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('counts the live disagrees by side, restamps only the responses that have some, and is idempotent', async () => {
    const { db } = server;
    for (const uid of ['author', 'friend', 'critic', 'reader'])
      await db.run('INSERT INTO users (uid, display_name, created_at, seq) VALUES (?, ?, ?, 1)', uid, uid, AT);
    await db.run(
      "INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq) VALUES ('t', 'A question', 'Science', 'author', ?, 0, 1)",
      AT,
    );
    for (const id of ['r-split', 'r-liked', 'r-self'])
      await db.run(
        "INSERT INTO responses (id, topic_id, type, content, creator_uid, created_at, updated_at, seq) VALUES (?, 't', 'for', 'A reason', 'author', ?, ?, 1)",
        id,
        AT,
        AT,
      );
    const votes: [string, string, string | null, number, number][] = [
      ['friend', 'r-split', 'agree', 1, 0],
      ['critic', 'r-split', 'disagree', -1, 0],
      ['reader', 'r-split', 'agree', -1, 0],
      ['friend', 'r-liked', 'agree', 1, 0],
      ['critic', 'r-liked', 'disagree', 0, 0],
      // A withdrawn disagree counts for nothing; nor does the author's own, nor one with no side.
      ['reader', 'r-liked', 'agree', -1, 1],
      ['author', 'r-self', 'agree', -1, 0],
      ['critic', 'r-self', null, -1, 0],
    ];
    for (const [voter, target, stance, value, deleted] of votes)
      await db.run(
        "INSERT INTO votes (voter_uid, target_type, target_id, target_creator_uid, topic_id, created_at, updated_at, deleted, seq, stance, value) VALUES (?, 'response', ?, 'author', 't', ?, ?, ?, 1, ?, ?)",
        voter,
        target,
        AT,
        AT,
        deleted,
        stance,
        value,
      );
    const seqBefore = await db.seq();
    const run = async () => {
      for (const statement of statements(db.engine)) await db.run(statement);
    };
    type Counts = { id: string; downvotes_agree: number; downvotes_disagree: number; seq: number };
    const counts = () => db.rows<Counts>('SELECT id, downvotes_agree, downvotes_disagree, seq FROM responses ORDER BY id');
    const withoutSeq = (rows: Counts[]) => rows.map(({ seq: _seq, ...row }) => row);

    await run();
    const after = await counts();
    expect(withoutSeq(after)).toEqual([
      { id: 'r-liked', downvotes_agree: 0, downvotes_disagree: 0 },
      { id: 'r-self', downvotes_agree: 0, downvotes_disagree: 0 },
      { id: 'r-split', downvotes_agree: 1, downvotes_disagree: 1 },
    ]);
    const seqs = Object.fromEntries(after.map((row) => [row.id, Number(row.seq)]));
    expect(seqs['r-split']).toBeGreaterThan(seqBefore);
    expect(seqs['r-liked']).toBe(1);
    expect(seqs['r-self']).toBe(1);

    await run();
    expect(withoutSeq(await counts())).toEqual(withoutSeq(after));
  });
});
