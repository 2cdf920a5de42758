// "the whole server suite on both engines". A server test that opens SQLite itself
// (openDatabase, createStore, better-sqlite3) never runs on PostgreSQL; it must either move to
// the engine-neutral helpers (tests/fixtures/test-db.ts, server.ts), which put it in the server-pg
// lane, or be listed in vitest.config.ts's SQLITE_ONLY with the reason it tests SQLite itself.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config, { lanes, NOT_FAST_PACKAGE, ON_TEST_ENGINE, SQLITE_ONLY } from '../../vitest.config.js';

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

// `npm run test:fast` needs nothing installed or started (no emulator, no PostgreSQL, no
// other process, no browser), and `npm test` still runs every file exactly once.
describe('the lanes', () => {
  const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[]; exclude: string[] } }[];
  const project = (name: string) => projects.find((entry) => entry.test.name === name)!.test;
  const allFiles = Object.values(lanes).flat();

  it('put every test file in exactly one lane', () => {
    const onDisk = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) return path === 'tests/scripts/fixtures' ? [] : walk(path);
        return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
      });
    })('tests');
    expect([...allFiles].sort()).toEqual(onDisk.sort());
    expect(new Set(allFiles).size).toBe(allFiles.length);
  });

  it('run the files that start their own PostgreSQL in server-pg only, once', () => {
    expect(lanes.postgres.length).toBeGreaterThan(0);
    const serverPg = project('server-pg').include;
    for (const file of lanes.postgres) expect(serverPg.filter((entry) => entry === file)).toEqual([file]);
    // Every other lane leaves them out (unit includes every file but excludes the other lanes').
    for (const name of ['fast', 'unit', 'server', 'store', 'store-pg', 'e2e']) {
      const { include, exclude } = project(name);
      for (const file of lanes.postgres) expect(!include.includes(file) || exclude.includes(file)).toBe(true);
      if (include.some((entry) => entry.includes('*'))) for (const file of lanes.postgres) expect(exclude).toContain(file);
    }
  });

  it('keep PostgreSQL out of the fast and unit lanes, and processes and browsers out of the fast one', () => {
    const source = (file: string) => readFileSync(join(process.cwd(), file), 'utf8');
    for (const file of [...lanes.fast, ...lanes.unit]) expect(source(file)).not.toMatch(/\bstartPostgres\(|inject\(\s*['"]postgresUrl/);
    expect(lanes.fast.length).toBeGreaterThan(0);
    for (const file of lanes.fast) {
      const text = source(file);
      for (const [, name] of text.matchAll(/^import\s+(?!type\s)[^'"]*['"]([^.'"][^'"]*)['"]/gm))
        expect(name).not.toMatch(NOT_FAST_PACKAGE);
      expect(text).not.toMatch(/fixtures\/(?:postgres|test-db|server-process|auth|server|mail)\.js/);
      expect(text).not.toMatch(/inject\(\s*['"]authEmulatorHost/);
    }
  });
});
