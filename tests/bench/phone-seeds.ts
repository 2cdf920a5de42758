// The phone bench's sites (phone.ts): seed.ts's large seed at each size, ten responses and twenty
// upvotes a topic up to the 1,000,000 responses, kept by size in .tmp/bench-seeds/ so a
// size is seeded once (a changed seed.ts seeds again: its hash is in the name).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { seedLarge, type LargeSeedSizes } from './seed.js';

const ROOT = process.cwd();
const MAX_RESPONSES = 1_000_000;

/** BENCH_PHONE_TOPICS=1000,100000 (default 1,000 / 100,000 / 1,000,000; BENCH_QUICK=1: 1,000 / 10,000). */
export function phoneSeedSizes(env: NodeJS.ProcessEnv = process.env): LargeSeedSizes[] {
  const list = env.BENCH_PHONE_TOPICS ?? (env.BENCH_QUICK === '1' ? '1000,10000' : '1000,100000,1000000');
  return list.split(',').map((text) => {
    const topics = Number(text);
    const responses = Math.min(MAX_RESPONSES, topics * 10);
    return { topics, responses, upvotes: responses * 2, bigTopicRoots: Math.min(23_000, Math.floor(responses / 4)) };
  });
}

/** The seeded SQLite file for these sizes, seeded now if no earlier run kept one. */
export function seededSite(sizes: LargeSeedSizes, log: (line: string) => void): string {
  const seedSource = readFileSync(fileURLToPath(new URL('./seed.ts', import.meta.url)));
  const hash = createHash('sha256').update(seedSource).digest('hex').slice(0, 8);
  const dir = join(ROOT, '.tmp', 'bench-seeds');
  const file = join(dir, `site-${sizes.topics}-${sizes.responses}-${sizes.upvotes}-${hash}.sqlite`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  // Seeded under another name and renamed: an interrupted seed never passes for a whole one.
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const started = performance.now();
  log(`seeding ${sizes.topics} topics / ${sizes.responses} responses / ${sizes.upvotes} upvotes into ${file}…`);
  const db = openDatabase(partial);
  try {
    seedLarge(db, sizes);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(partial + suffix, { force: true });
  renameSync(partial, file);
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return file;
}
