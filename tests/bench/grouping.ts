// Opinion groups on the server: one topic of 10,000 responses upvoted by 2,000
// participants (three planted camps, each upvoting mostly among its own 100 favourite responses; ten
// upvotes each, a third of them anywhere in the topic), grouped by the
// real job's step (domain/opinion-groups.ts refreshOpinionGroups: read the upvotes from SQLite,
// compute, store). Budget 2 s: it runs in the background job, never while a request waits.
// Fixed sizes, quick runs included (BENCH_GROUP_PARTICIPANTS / BENCH_GROUP_RESPONSES to change them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../../shared/rules/clustering.js';
import { opinionGroups, parseOpinionGroups } from '../../shared/rules/opinion-groups.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { refreshOpinionGroups } from '../../sync-server/src/domain/opinion-groups.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { seedBench } from './seed.js';
import type { BenchRow } from './types.js';

export async function benchGrouping(log: (line: string) => void = (line) => console.error(line)): Promise<BenchRow[]> {
  const participants = Number(process.env.BENCH_GROUP_PARTICIPANTS ?? 2_000);
  const responses = Number(process.env.BENCH_GROUP_RESPONSES ?? 10_000);
  const size = `${participants.toLocaleString('en')} participants / ${responses.toLocaleString('en')} responses`;
  const dir = mkdtempSync(join(tmpdir(), 'crux-bench-groups-'));
  const file = join(dir, 'groups.sqlite');
  const store = createStore(openDatabase(file));
  try {
    log(`opinion groups: seeding ${size}…`);
    const seedDb = openDatabase(file);
    const { bigTopicId } = seedBench(seedDb, 1, responses);
    const random = seededRandom(1);
    const insertUser = seedDb.prepare('INSERT INTO users (uid, display_name, email, created_at) VALUES (?, NULL, NULL, ?)');
    const insertVote = seedDb.prepare(`
      INSERT OR IGNORE INTO votes (voter_uid, target_type, target_id, target_creator_uid, topic_id, created_at, updated_at, seq)
      VALUES (?, 'response', ?, 'bench', ?, ?, ?, ?)`);
    seedDb.transaction(() => {
      let seq = seedDb.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'seq'").get()!.value;
      const now = new Date().toISOString();
      const camp = Math.floor(responses / 3);
      const favourites = Math.min(100, camp);
      for (let p = 0; p < participants; p++) {
        insertUser.run(`bench-voter-${p}`, now);
        for (let v = 0; v < 10; v++) {
          const r = random() < 2 / 3 ? (p % 3) * camp + Math.floor(random() * favourites) : Math.floor(random() * responses);
          insertVote.run(`bench-voter-${p}`, `bench-r-${r}`, bigTopicId, now, now, ++seq);
        }
      }
      seedDb.prepare("UPDATE meta SET value = ? WHERE key = 'seq'").run(seq);
    })();
    seedDb.close();

    const ctx: DomainContext = { store, clock: () => new Date(), newId: () => 'unused', changes: createChangeFeed() };
    const t0 = performance.now();
    await refreshOpinionGroups(ctx, bigTopicId);
    const job = performance.now() - t0;
    const summary = parseOpinionGroups((await store.topics.get(bigTopicId, null))?.opinion_groups);
    // The computation alone, on the same upvotes (what the job's time is mostly made of).
    const votes = await store.groups.votes(bigTopicId);
    const t1 = performance.now();
    opinionGroups(votes);
    const compute = performance.now() - t1;
    const found = summary
      ? `${summary.status}${summary.status === 'groups' ? ` (${summary.groups.map((g) => g.size).join(' / ')})` : ''}`
      : 'none';
    log(`opinion groups: ${job.toFixed(0)} ms (${found})`);
    return [
      {
        name: 'server: opinion groups, one topic (read, compute, store; background job)',
        value: Math.round(job),
        unit: 'ms',
        budget: 2000,
        note: `${size}, ${votes.length.toLocaleString('en')} upvotes; found ${found}`,
      },
      { name: 'server: opinion groups, computation alone', value: Math.round(compute), unit: 'ms', note: size },
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
