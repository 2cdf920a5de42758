// The self-upvote migration (SQLite 006-self-upvotes-by-side.sql, PostgreSQL
// 002-self-upvotes-by-side.sql) on rows as the code before it counted them: an author's own upvote
// was counted on their side. Runs on the test engine (the server-pg lane: PostgreSQL), so both files
// are checked: the counts by side leave the author's vote out, the score keeps it, only the changed
// responses get a new change number, and running it again changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSql, rowStatements } from '../fixtures/migration-sql.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const statements = (engine: 'sqlite' | 'postgres') =>
  rowStatements(migrationSql(engine, { sqlite: '006-self-upvotes-by-side.sql', postgres: '002-self-upvotes-by-side.sql' }));

const AT = '2026-03-01T00:00:00.000Z';

describe('migration: a self-upvote counts in the score but on no side', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('recounts the sides of the responses their authors upvoted, restamps only those, and is idempotent', async () => {
    const { db } = server;
    for (const uid of ['author', 'friend', 'critic'])
      await db.run('INSERT INTO users (uid, display_name, created_at, seq) VALUES (?, ?, ?, 1)', uid, uid, AT);
    await db.run(
      "INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq) VALUES ('t', 'A question', 'Science', 'author', ?, 0, 1)",
      AT,
    );
    // As the old code stored them: r-self's author upvoted it while agreeing (counted on the agree side);
    // r-other was upvoted by others only; r-unsure's author upvoted it with no side.
    const responses: [string, number, number, number][] = [
      ['r-self', 3, 2, 1],
      ['r-other', 2, 1, 1],
      ['r-unsure', 2, 0, 1],
    ];
    for (const [id, score, agree, disagree] of responses)
      await db.run(
        "INSERT INTO responses (id, topic_id, type, content, creator_uid, created_at, updated_at, score, upvotes_agree, upvotes_disagree, seq) VALUES (?, 't', 'for', 'A reason', 'author', ?, ?, ?, ?, ?, 1)",
        id,
        AT,
        AT,
        score,
        agree,
        disagree,
      );
    const votes: [string, string, string | null, number][] = [
      ['author', 'r-self', 'agree', 0],
      ['friend', 'r-self', 'agree', 0],
      ['critic', 'r-self', 'disagree', 0],
      ['friend', 'r-other', 'agree', 0],
      ['critic', 'r-other', 'disagree', 0],
      ['author', 'r-unsure', 'unsure', 0],
      ['critic', 'r-unsure', 'disagree', 0],
      // A withdrawn self-upvote counts for nothing.
      ['author', 'r-other', 'agree', 1],
    ];
    for (const [voter, target, stance, deleted] of votes)
      await db.run(
        "INSERT INTO votes (voter_uid, target_type, target_id, target_creator_uid, topic_id, created_at, updated_at, deleted, seq, stance) VALUES (?, 'response', ?, 'author', 't', ?, ?, ?, 1, ?)",
        voter,
        target,
        AT,
        AT,
        deleted,
        stance,
      );
    const seqBefore = await db.seq();
    const run = async () => {
      for (const statement of statements(db.engine)) await db.run(statement);
    };
    type Counts = { id: string; score: number; upvotes_agree: number; upvotes_disagree: number; seq: number };
    const counts = () => db.rows<Counts>('SELECT id, score, upvotes_agree, upvotes_disagree, seq FROM responses ORDER BY id');
    const withoutSeq = (rows: Counts[]) => rows.map(({ seq: _seq, ...row }) => row);

    await run();
    const after = await counts();
    expect(withoutSeq(after)).toEqual([
      { id: 'r-other', score: 2, upvotes_agree: 1, upvotes_disagree: 1 },
      { id: 'r-self', score: 3, upvotes_agree: 1, upvotes_disagree: 1 },
      { id: 'r-unsure', score: 2, upvotes_agree: 0, upvotes_disagree: 1 },
    ]);
    const seqs = Object.fromEntries(after.map((row) => [row.id, Number(row.seq)]));
    // The changed response is pulled again; the others keep their change number.
    expect(seqs['r-self']).toBeGreaterThan(seqBefore);
    expect(seqs['r-other']).toBe(1);
    expect(seqs['r-unsure']).toBe(1);

    await run();
    const again = await counts();
    expect(withoutSeq(again)).toEqual(withoutSeq(after));
  });
});
