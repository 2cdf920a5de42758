// The migration that stores a topic's responses by type (SQLite
// 009-cheap-user-and-stance-reads.sql, PostgreSQL 005-cheap-user-and-stance-reads.sql) fills the new
// counts for rows written before it: run on the test engine (PostgreSQL in the server-pg lane)
// over topics whose counts are zeroed as a database from before the migration holds them, it
// writes the recount, the same the maintained counters held; running it again changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { migrationSql as readMigration, rowStatements } from '../fixtures/migration-sql.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const migrationSql = (engine: 'sqlite' | 'postgres') =>
  readMigration(engine, { sqlite: '009-cheap-user-and-stance-reads.sql', postgres: '005-cheap-user-and-stance-reads.sql' });

const COUNTS = 'SELECT id, responses_count, responses_for, responses_against, responses_neutral FROM topics ORDER BY id';

describe("migration: a topic's responses counted by type", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('fills the counts of existing topics with a recount of their live responses, idempotently', async () => {
    const { db } = server;
    const api = apiClient(server.url, (await createTestUser('Mig Counts')).token);
    const first = await makeTopic(api);
    const second = await makeTopic(api);
    const made = [];
    for (const [topic, type] of [
      [first, 'for'],
      [first, 'for'],
      [first, 'against'],
      [first, 'neutral'],
      [second, 'against'],
    ] as const) {
      made.push(await makeResponse(api, { topic_id: topic.id, type, content: `A ${type} response` }));
    }
    await makeResponse(api, { parent_response_id: made[0]!.id, type: 'neutral', content: 'A reply' });
    expect((await api.del(`/responses/${made[1]!.id}`)).status).toBe(204);
    const maintained = await db.rows(COUNTS);
    expect(maintained).toContainEqual({
      id: first.id,
      responses_count: 4,
      responses_for: 1,
      responses_against: 1,
      responses_neutral: 2,
    });
    await db.run('UPDATE topics SET responses_for = 0, responses_against = 0, responses_neutral = 0');
    for (const statement of rowStatements(migrationSql(db.engine))) await db.run(statement);
    expect(await db.rows(COUNTS)).toEqual(maintained);
    for (const statement of rowStatements(migrationSql(db.engine))) await db.run(statement);
    expect(await db.rows(COUNTS)).toEqual(maintained);
  });
});
