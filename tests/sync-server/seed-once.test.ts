// Two server processes starting at once on one empty database (an overlapping deploy,
// or several PostgreSQL processes with SEED_DEMO on) seed the demo debates once, not twice. Two
// stores on one PostgreSQL database (the server-pg lane, tests/fixtures/test-db.ts) stand for the
// processes. Not on SQLite: two connections in one process cannot stand for two processes there
// (better-sqlite3 waits for the file lock synchronously, so the waiting one blocks the event loop
// the holder needs to finish); there the check and the seeding are the same one write transaction.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/src/app.js';
import { seedDemoIfEmpty } from '../../sync-server/src/seed/demo.js';
import { testDatabase } from '../fixtures/test-db.js';

const refuseTokens = { verify: () => Promise.reject(new Error('no tokens in this test')) };

describe('demo seeding', () => {
  it('two processes starting at once on an empty database seed it once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-seed-'));
    const database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    const stores = [await database.openStore(), await database.openStore()];
    const db = await database.openDb();
    try {
      const contexts = stores.map((store) => createApp({ store, verifier: refuseTokens, log: () => {} }).ctx);
      const seeded = await Promise.all(contexts.map((ctx) => seedDemoIfEmpty(ctx)));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      // Each demo title once.
      const titles = await db.rows<{ title: string; n: number }>('SELECT title, count(*) AS n FROM topics GROUP BY title');
      expect(titles.length).toBeGreaterThan(3);
      expect(titles.filter((row) => row.n !== 1)).toEqual([]);
      // A later start seeds nothing.
      expect(await seedDemoIfEmpty(contexts[0]!)).toBe(false);
    } finally {
      await db.close();
      for (const store of stores) await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
