// The write paths' CPU in process (the write budgets): on a copy of a seeded file
// (`npm run bench:seed -- <file>`), N pushes of 50 new responses on random topics (each push one group
// commit, as the server runs it), then N rounds of 50 concurrent creates (one group each, as 50
// connections posting at once), and the process's CPU time per document. No HTTP, no load generator,
// no other process: the steadiest A/B figure on a shared machine (run two checkouts alternately).
//   npx tsx tests/bench/write-cpu.ts <seeded file> [N, default 40]   (BENCH_CACHE_MB: the page cache)
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../../shared/ids.js';
import type { PushRow, ResponseDoc } from '../../shared/sync-protocol.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { push } from '../../sync-server/src/sync/push.js';
import { largeSeedSizes } from './seed.js';

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error('Usage: npx tsx tests/bench/write-cpu.ts <seeded file.sqlite> [pushes, default 40]');
  process.exit(2);
}
const rounds = Number(countArg ?? 40);
const topics = largeSeedSizes().topics;
const dir = mkdtempSync(join(tmpdir(), 'crux-write-cpu-'));
copyFileSync(file, join(dir, 'crux.sqlite'));
const db = openDatabase(join(dir, 'crux.sqlite'), process.env.BENCH_CACHE_MB ? { cacheMb: Number(process.env.BENCH_CACHE_MB) } : {});
const store = createStore(db);
const ctx: DomainContext = { store, clock: () => new Date(), newId, changes: createChangeFeed() };
const user = { uid: 'bench-writer', name: 'Bench Writer', email: null };
try {
  await rememberUser(ctx, user);
  // The seed's topic ids (seed.ts seedLarge).
  const randomTopic = () => {
    const i = Math.floor(Math.random() * topics);
    return i === 0 ? 'bench-topic-big' : `bench-topic-${i}`;
  };
  // What a client pushes: the user's fields (the push schema's); the server's own fields are never read from a push.
  const row = (): PushRow<ResponseDoc> =>
    ({
      assumedMasterState: null,
      newDocumentState: {
        id: newId(),
        topic_id: randomTopic(),
        parent_response_id: null,
        quoted_response_id: null,
        type: 'for',
        content: 'An argument pushed by the bench, one of fifty in its request.',
        sources: [],
        _deleted: false,
      },
    }) as unknown as PushRow<ResponseDoc>;
  const cpuUs = () => {
    const used = process.cpuUsage();
    return used.user + used.system;
  };
  const pushOf50 = async () => {
    const answer = await push(ctx, user, 'responses', Array.from({ length: 50 }, row));
    if (answer.rejected.length > 0) throw new Error(`a pushed row was refused: ${answer.rejected[0]!.error}`);
  };
  for (let i = 0; i < 3; i++) await pushOf50(); // warm up
  let started = cpuUs();
  for (let i = 0; i < rounds; i++) await pushOf50();
  const pushUs = (cpuUs() - started) / (rounds * 50);
  started = cpuUs();
  for (let i = 0; i < rounds; i++) {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        createResponse(ctx, user, { topic_id: randomTopic(), type: 'for', content: 'A new argument posted by the bench.' }),
      ),
    );
  }
  const createUs = (cpuUs() - started) / (rounds * 50);
  console.log(`push: ${Math.round(pushUs)} µs CPU a document; create (50 at once): ${Math.round(createUs)} µs CPU each`);
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
