// Issue 14: "the whole server suite on both engines". A server test that opens SQLite itself
// (openDatabase, createStore, better-sqlite3) never runs on PostgreSQL; it must either move to
// the engine-neutral helpers (tests/fixtures/test-db.ts, server.ts), which put it in the server-pg
// lane, or be listed in vitest.config.ts's SQLITE_ONLY with the reason it tests SQLite itself.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ON_TEST_ENGINE, SQLITE_ONLY } from '../../vitest.config.js';

const OPENS_SQLITE = /\bopenDatabase\(|\bcreateStore\(|from 'better-sqlite3'/;

describe('server tests run on both engines', () => {
  it('every server test that opens a store either runs on the lane engine or says why it is SQLite only', () => {
    const dir = 'tests/sync-server';
    const stranded = readdirSync(dir)
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${dir}/${name}`)
      .filter((file) => {
        const source = readFileSync(join(process.cwd(), file), 'utf8');
        return OPENS_SQLITE.test(source) && !ON_TEST_ENGINE.test(source) && !(file in SQLITE_ONLY);
      });
    expect(stranded).toEqual([]);
  });
});
