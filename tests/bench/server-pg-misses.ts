// The rows the server bench still misses on one SQLite process (a search whose word, sort
// and size change every request; a reply to a random topic; a sync push of 50 new responses), measured
// on each engine and process count `npm run bench -- postgres` starts: SQLite behind one process, and
// PostgreSQL behind one server and behind two (each its own process on the one database, as
// docs/OPERATIONS.md "PostgreSQL" runs several; the load generator spreads its connections over both).
// SQLite's own several-process numbers (SERVER_PROCESSES) are the `processes` module's. The writes come
// last: they change what the reads measured. Not a test: no assertion on timing.
import { cannon, emulatorToken, type Measured, type Vary } from './server.js';
import { SEED_WORDS } from './seed.js';
import type { BenchRow } from './types.js';

export interface EngineUnderLoad {
  /** The row's label: "sqlite, 1 process", "postgres, 2 servers". */
  label: string;
  /** One server's URL, or each of several servers' (autocannon spreads its connections over them). */
  urls: string[];
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

export async function benchMissedRowsOnEngines(input: {
  engines: EngineUnderLoad[];
  /** The Auth emulator every server checks tokens against (host:port). */
  emulatorHost: string;
  topics: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<BenchRow[]> {
  const { engines, emulatorHost, topics, seconds, log } = input;
  const rows: BenchRow[] = [];
  const token = await emulatorToken(emulatorHost);
  const auth = { authorization: `Bearer ${token}` };
  for (const engine of engines)
    for (const url of engine.urls) {
      // The first signed-in call records the user (as the app's first sync does).
      const first = await fetch(`${url}/api/follows`, { headers: auth });
      if (!first.ok) throw new Error(`${engine.label}: GET /api/follows with an emulator token answered ${first.status}`);
    }

  const measure = async (engine: EngineUnderLoad, name: string, path: string, options: Record<string, unknown>, vary: Vary) => {
    const result = await cannon({ url: engine.urls.map((url) => `${url}${path}`), duration: seconds, ...options }, vary);
    log(
      `misses: ${engine.label}: ${name}: ${fmt(result.requestsPerSecond)} req/s, p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms`,
    );
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${engine.label} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result;
  };
  const rowName = (engine: EngineUnderLoad, name: string) => `${engine.label}: ${name}`;
  const rate = (m: Measured) => `${fmt(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms`;

  for (const engine of engines) {
    const search = await measure(
      engine,
      'search, word × sort × size',
      '/api/topics',
      { connections: 50 },
      { kind: 'search', words: [...new Set(SEED_WORDS)], sorts: ['hot', 'new', 'top'], limits: [10, 20, 50, 100] },
    );
    rows.push({
      name: rowName(engine, 'GET /api/topics?search=<word>&sort=<sort>&limit=<size> p99'),
      value: search.latencyP99,
      unit: 'ms',
      budget: 50,
      note: `${rate(search)}; 50 connections`,
    });
  }
  const json = { ...auth, 'content-type': 'application/json' };
  // A server may still be writing what the load generator sent before it stopped (its writes queue in
  // the process, and on PostgreSQL every server's wait for one lock): one more reply to each server,
  // answered only once its queue is through, so that a row never measures the one before it.
  const drained = async (engine: EngineUnderLoad) => {
    for (const url of engine.urls) {
      const res = await fetch(`${url}/api/responses`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ topic_id: 'bench-topic-1', type: 'for', content: 'A reply after the row, to drain the queue.' }),
      });
      if (!res.ok) throw new Error(`${engine.label}: the draining reply answered ${res.status}`);
    }
  };
  for (const engine of engines) {
    const post = await measure(
      engine,
      'POST /api/responses (random topics)',
      '/api/responses',
      { connections: 50, method: 'POST', headers: json },
      { kind: 'response', topics },
    );
    await drained(engine);
    rows.push({
      name: rowName(engine, 'POST /api/responses (random topics)'),
      value: Math.round(post.requestsPerSecond),
      unit: 'req/s',
      budget: 2000,
      higherIsBetter: true,
      note: `${rate(post)} (p99 budget 50 ms); 50 connections`,
    });
    const push = await measure(
      engine,
      'sync push, 50 response creates per request',
      '/api/sync/responses/push',
      { connections: 10, method: 'POST', headers: json },
      { kind: 'response-push', topics, batch: 50 },
    );
    await drained(engine);
    rows.push({
      name: rowName(engine, 'sync push, 50 response creates per request (random topics)'),
      value: Math.round(push.requestsPerSecond * 50),
      unit: 'docs/s',
      budget: 5000,
      higherIsBetter: true,
      note: `${rate(push)} (p99 budget 250 ms); 10 connections`,
    });
  }
  return rows;
}
