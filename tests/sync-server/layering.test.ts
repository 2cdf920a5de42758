// The engines stay behind the Store interface. Only store/<engine>/ and the one place
// that chooses the engine (backend.ts) may import an engine's files or a database driver, besides
// the list of both engines' repositories (store/repositories.ts), which only the engines import; the
// domain, replication and routes see the interface (store/types.ts) and the rows (store/rows.ts).
// Reads the import specifiers of the source files, so an import added anywhere else fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = 'sync-server/src';
const ENGINES = ['store/sqlite', 'store/pg'];
const DRIVERS = ['pg', 'pg-pool', 'pg-cursor', 'pg-protocol', 'better-sqlite3', 'sqlite3', 'node:sqlite'];
/** Allowed to import an engine: the engine itself (and only its own), and where the engine is chosen. */
const CHOOSES_ENGINE = 'backend.ts';
/** Lists both engines' repositories; only the engines (each builds its own) may import it. */
const LISTS_REPOSITORIES = 'store/repositories.ts';

const SPECIFIER = /\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.[cm]?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** What a file imports: drivers by name, the server's own files by path relative to SRC. */
function importsOf(file: string, source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => {
    const specifier = (match[1] ?? match[2])!;
    return specifier.startsWith('.') ? relative(resolve(SRC), resolve(SRC, dirname(file), specifier)) : specifier;
  });
}

const isDriver = (specifier: string) => DRIVERS.some((driver) => specifier === driver || specifier.startsWith(`${driver}/`));
const engineOf = (path: string) => ENGINES.find((engine) => path.startsWith(`${engine}/`));

/** The file's imports that break the layering: another engine's files, or a driver outside an engine. */
function violations(file: string, source: string): string[] {
  if (file === CHOOSES_ENGINE || file === LISTS_REPOSITORIES) return [];
  const own = engineOf(file);
  const listsRepositories = (target: string) => target === LISTS_REPOSITORIES.replace(/\.ts$/, '.js');
  return importsOf(file, source)
    .filter((target) => (engineOf(target) ? engineOf(target) !== own : (isDriver(target) || listsRepositories(target)) && !own))
    .map((target) => `${file} imports ${target}`);
}

describe('the store engines stay behind the Store interface', () => {
  const files = sourceFiles('');

  it('reads the server and both engines', () => {
    expect(files).toContain('domain/topics.ts');
    expect(files).toContain('store/sqlite/store.ts');
    expect(files).toContain('store/pg/store.ts');
  });

  it('no file outside an engine imports an engine or a driver, and no engine imports the other (backend.ts chooses)', () => {
    expect(files.flatMap((file) => violations(file, readFileSync(join(SRC, file), 'utf8')))).toEqual([]);
  });

  it.each([
    ['domain/x.ts', "import { createStore } from '../store/sqlite/store.js';"],
    ['domain/x.ts', "import pg from 'pg';"],
    ['sync/collections/x.ts', "import type { Db } from '../../store/sqlite/connection.js';"],
    ['routes/x.ts', "const Database = require('better-sqlite3');"],
    ['routes/x.ts', "const search = await import('../store/pg/search.js');"],
    ['store/pg/x.ts', "import { migrate } from '../sqlite/migrate.js';"],
    ['store/rows.ts', "import type { PgQueries } from './pg/queries.js';"],
    ['domain/x.ts', "import { buildRepositories } from '../store/repositories.js';"],
  ])('catches %s: %s', (file, line) => {
    expect(violations(file, line)).toHaveLength(1);
  });

  it.each([
    ['domain/x.ts', "import type { Store } from '../store/types.js';"],
    ['routes/x.ts', "import { toTopic } from '../store/rows.js';"],
    ['store/pg/x.ts', "import pg from 'pg';"],
    ['store/sqlite/x.ts', 'import type Database from "better-sqlite3";'],
    ['store/pg/x.ts', "import { buildRepositories } from '../repositories.js';"],
  ])('allows %s: %s', (file, line) => {
    expect(violations(file, line)).toEqual([]);
  });
});
