// `npm run bench:seed -- <file>`: a new SQLite database of 100,000 topics / 1,000,000 responses /
// 2,000,000 upvotes, the same seed the server bench measures (seed.ts
// seedLarge; BENCH_QUICK=1 for a tenth, or BENCH_TOPICS / BENCH_RESPONSES / BENCH_UPVOTES). The
// file gets the server's schema first, so `DATA_DIR=<its folder> npm run dev:server` serves it
// when it is named crux.sqlite. Refuses a file that already has topics (the ids would collide).
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { largeSeedSizes, seedLarge } from './seed.js';

const target = process.argv[2];
if (!target || target.startsWith('-')) {
  console.error('Usage: npm run bench:seed -- <file.sqlite>   (BENCH_QUICK=1: 10,000 topics / 100,000 responses)');
  process.exit(2);
}
const file = resolve(target);
const db = openDatabase(file);
try {
  if (db.prepare('SELECT 1 FROM topics LIMIT 1').get() !== undefined) {
    console.error(`${file} already has topics: seed a new file instead.`);
    process.exitCode = 1;
  } else {
    const sizes = largeSeedSizes();
    const fmt = (n: number) => n.toLocaleString('en');
    console.error(`seeding ${file}: ${fmt(sizes.topics)} topics / ${fmt(sizes.responses)} responses / ${fmt(sizes.upvotes)} upvotes…`);
    const started = performance.now();
    const seeded = seedLarge(db, sizes);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `seeded in ${seconds.toFixed(1)} s: ${fmt(seeded.counts.topics)} topics, ${fmt(seeded.counts.responses)} responses, ` +
        `${fmt(seeded.counts.upvotes)} upvotes, ${fmt(seeded.users)} users; the big topic is ${seeded.bigTopicId}`,
    );
  }
} finally {
  db.close();
}
