// SERVER_PROCESSES=2 on one SQLite file (sync-server/src/cluster/primary.ts): the real
// server started as `npm start` starts it (a primary that migrates and forks two serving processes
// on one port), each process pinned by a keep-alive connection of its own (Node's cluster hands
// each new connection to the next process), so a test knows which process answers (the
// X-Crux-Server-Process header, only with CRUX_TEST_PROCESS_HEADER=1). Shown: both processes serve;
// a write through one is read through the other at once and heard by a live stream held by the
// other; concurrent writes through both all land, with unique seqs; a caller's rate limit counts
// across both; the seed and the scheduled backups run in one process only; GET /metrics sums both;
// a process killed is started again while the other serves; SIGTERM drains both (every acknowledged write is in the file) and the primary exits 0.
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import type { Topic } from '../../shared/types.js';

const PROCESS_HEADER = 'x-crux-server-process';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A client on one keep-alive connection: every request it sends reaches the same server process. */
function pinnedClient(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${base}/api${path}`,
        {
          method,
          agent,
          headers: {
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return {
    agent,
    get: (path: string, token?: string) => call('GET', path, undefined, token),
    post: (path: string, body: unknown, token?: string) => call('POST', path, body, token),
    close: () => agent.destroy(),
  };
}
type Pinned = ReturnType<typeof pinnedClient>;

/** One pinned client per server process (new connections go round the processes in turn). */
async function pinEach(base: string, count: number): Promise<Pinned[]> {
  const pinned = new Map<string, Pinned>();
  for (let tries = 0; pinned.size < count && tries < 40; tries++) {
    const client = pinnedClient(base);
    const index = (await client.get('/health')).headers[PROCESS_HEADER] as string;
    if (pinned.has(index)) client.close();
    else pinned.set(index, client);
  }
  expect([...pinned.keys()].sort()).toEqual(Array.from({ length: count }, (_, i) => String(i)));
  return [...pinned.entries()].sort(([a], [b]) => Number(a) - Number(b)).map(([, client]) => client);
}

/** The live stream's events, read through a pinned client (so held by that process). */
function openStream(client: Pinned, base: string) {
  const events: Array<{ type: string; collection: string }> = [];
  let processIndex: string | undefined;
  const req = request(`${base}/api/sync/stream`, { agent: client.agent }, (res) => {
    processIndex = res.headers[PROCESS_HEADER] as string;
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (data) events.push(JSON.parse(data) as (typeof events)[number]);
      }
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.end();
  return {
    events,
    process: () => processIndex,
    async until(predicate: (event: (typeof events)[number]) => boolean, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!events.some(predicate)) {
        if (Date.now() > deadline) throw new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => req.destroy(),
  };
}

/** The server's JSON log lines (LOG_LEVEL=info). */
const logLines = (server: ServerProcess) =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; pid: number });

/** The pid of serving process `index` (a child of the primary `primary`, found by its environment). */
function servingProcessPid(primary: number, index: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== primary) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`CRUX_SERVER_PROCESS_INDEX=${index}`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no serving process ${index} under ${primary}`);
}

const until = async (done: () => boolean, what: string, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

let dir: string;
let backupDir: string;
let server: ServerProcess;
let zero: Pinned;
let one: Pinned;
let ada: TestUser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crux-processes-'));
  backupDir = join(dir, 'backups');
  server = await startServerProcess(dir, undefined, {
    SERVER_PROCESSES: '2',
    CRUX_TEST_PROCESS_HEADER: '1',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'true',
    METRICS_PORT: '0',
    // A backup every 1.8 s: the schedule runs in one process, so every "Backup written" line has one pid.
    BACKUP_DIR: backupDir,
    BACKUP_EVERY_HOURS: '0.0005',
    // Rate limits on: a signed-in caller's expensive reads (burst 4) show the counts are shared.
    RATE_LIMITS: 'on',
    RATE_LIMIT_USER_READS_BURST: '4',
    RATE_LIMIT_USER_READS_PER_MIN: '1',
    RATE_LIMIT_USER_WRITES_BURST: '1000',
    RATE_LIMIT_IP_WRITES_BURST: '1000',
  });
  [zero, one] = (await pinEach(server.url, 2)) as [Pinned, Pinned];
  ada = await createTestUser('Ada Processes');
}, 120_000);

afterAll(() => {
  zero?.close();
  one?.close();
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe('SERVER_PROCESSES=2 on one SQLite file', () => {
  it('a write through one process is read through the other at once, and heard by a stream the other holds', async () => {
    const stream = openStream(one, server.url);
    await stream.until((event) => event.collection === '*');
    expect(stream.process()).toBe('1');

    // The stream's connection is busy, so process 1 is asked on another connection pinned to it.
    const readerOnOne = (await pinEach(server.url, 2))[1]!;
    // Process 1 keeps the newest topics' page (a fast read: http/fast-reads.ts) before the write.
    const listed = async () => {
      const page = await readerOnOne.get('/topics?sort=new&limit=5');
      expect(page.headers[PROCESS_HEADER]).toBe('1');
      return (page.body as Topic[]).map((topic) => topic.id);
    };
    const before = await listed();
    expect(await listed()).toEqual(before);

    const created = await zero.post('/topics', { title: 'Written through process 0', categories: ['Science'] }, ada.token);
    expect(created.status).toBe(201);
    expect(created.headers[PROCESS_HEADER]).toBe('0');
    const read = await readerOnOne.get(`/topics/${created.body.id}`);
    expect(read.headers[PROCESS_HEADER]).toBe('1');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // Its kept page too: process 0's change message (or RECHECK_MS) made process 1 read the version again.
    expect((await listed())[0]).toBe(created.body.id);
    await stream.until((event) => event.type === 'RESYNC' && event.collection === 'topics');

    // And back: a reply through process 1 reaches a stream held by process 0.
    const onZero = openStream(zero, server.url);
    await onZero.until((event) => event.collection === '*');
    expect(onZero.process()).toBe('0');
    const reply = await readerOnOne.post('/responses', { topic_id: created.body.id, type: 'for', content: 'From process 1' }, ada.token);
    expect(reply.status).toBe(201);
    expect(reply.headers[PROCESS_HEADER]).toBe('1');
    await onZero.until((event) => event.type === 'RESYNC' && event.collection === 'topics');
    stream.close();
    onZero.close();
    readerOnOne.close();
    zero.close();
    one.close();
    [zero, one] = (await pinEach(server.url, 2)) as [Pinned, Pinned];
  }, 60_000);

  it('concurrent writes through both processes all land, each with its own seq', async () => {
    const more = await Promise.all([pinEach(server.url, 2), pinEach(server.url, 2), pinEach(server.url, 2)]);
    const clients = [zero, one, ...more.flat()];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, n) =>
        clients[n % clients.length]!.post('/topics', { title: `Concurrent ${n}`, categories: ['Other'] }, ada.token),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((answer) => answer.headers[PROCESS_HEADER]))).toEqual(new Set(['0', '1']));
    for (const client of more.flat()) client.close();
    const db = new Database(join(dir, 'crux.sqlite'), { readonly: true });
    try {
      const ids = answers.map((answer) => answer.body.id as string);
      const stored = db.prepare(`SELECT count(*) AS n FROM topics WHERE id IN (${ids.map(() => '?').join(',')})`).get(...ids) as {
        n: number;
      };
      expect(stored.n).toBe(60);
      expect(db.prepare('SELECT count(*) - count(DISTINCT seq) AS repeated FROM topics').get()).toEqual({ repeated: 0 });
    } finally {
      db.close();
    }
  }, 60_000);

  it("a caller's rate limit counts across both processes", async () => {
    const bob = await createTestUser('Bob Processes');
    const statuses: string[] = [];
    // Burst 4: two searches (an expensive read) through each process, then the fifth is refused wherever it goes.
    for (const client of [zero, zero, one, one, zero, one]) {
      const answer = await client.get('/topics?search=energy', bob.token);
      statuses.push(`${String(answer.headers[PROCESS_HEADER])}:${answer.status}`);
    }
    expect(statuses).toEqual(['0:200', '0:200', '1:200', '1:200', '0:429', '1:429']);
  }, 60_000);

  it('the seed and the scheduled backups run in one process, and GET /metrics sums both', async () => {
    await until(() => logLines(server).filter((line) => line.msg.startsWith('Backup written')).length >= 2, 'two backups');
    const lines = logLines(server);
    expect(lines.filter((line) => line.msg === 'Seeded demo debates.')).toHaveLength(1);
    const backupPids = new Set(lines.filter((line) => line.msg.startsWith('Backup written')).map((line) => line.pid));
    expect(backupPids.size).toBe(1);
    expect(readdirSync(backupDir).length).toBeGreaterThanOrEqual(2);
    // Demo topics seeded once: no title twice.
    const db = new Database(join(dir, 'crux.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT title, count(*) AS n FROM topics GROUP BY title HAVING n > 1').all()).toEqual([]);
    } finally {
      db.close();
    }

    const metricsUrl = /Metrics on (http:\/\/[\d.]+:\d+\/metrics)/.exec(lines.map((line) => line.msg).join('\n'))?.[1];
    expect(metricsUrl).toBeDefined();
    const healthCount = async () => {
      const text = await (await fetch(metricsUrl!)).text();
      return [...text.matchAll(/^crux_http_requests_total\{[^}]*route="\/api\/health"[^}]*\} (\d+)/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
    };
    const before = await healthCount();
    for (let n = 0; n < 5; n++) {
      expect((await zero.get('/health')).status).toBe(200);
      expect((await one.get('/health')).status).toBe(200);
    }
    expect((await healthCount()) - before).toBe(10);
  }, 60_000);

  it('a serving process that dies is started again with its index, and the others serve meanwhile', async () => {
    const victim = servingProcessPid(server.child.pid!, 1);
    process.kill(victim, 'SIGKILL');
    // Process 0 answers throughout; process 1 is back (a new pid) and serves what 0 wrote meanwhile.
    const written = await zero.post('/topics', { title: 'Written while process 1 was down', categories: ['Other'] }, ada.token);
    expect(written.status).toBe(201);
    let back: Pinned[] | undefined;
    await until(() => {
      try {
        return servingProcessPid(server.child.pid!, 1) !== victim;
      } catch {
        return false;
      }
    }, 'process 1 started again');
    for (let tries = 0; !back && tries < 50; tries++) {
      try {
        back = await pinEach(server.url, 2);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const read = await back![1]!.get(`/topics/${written.body.id}`);
    expect(read.headers[PROCESS_HEADER]).toBe('1');
    expect(read.status).toBe(200);
    zero.close();
    one.close();
    [zero, one] = back as [Pinned, Pinned];
    expect(logLines(server).some((line) => line.msg.startsWith('Server process 1 exited unexpectedly'))).toBe(true);
  }, 120_000);

  it('SIGTERM drains both processes: every acknowledged write is in the file, and the primary exits 0', async () => {
    const clients = [...(await pinEach(server.url, 2)), ...(await pinEach(server.url, 2)), zero, one];
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    const acknowledged: string[] = [];
    const refused: number[] = [];
    let n = 0;
    const writer = async (client: Pinned) => {
      while (!gone) {
        try {
          const answer = await client.post('/topics', { title: `Through the shutdown ${n++}`, categories: ['Other'] }, ada.token);
          if (answer.status === 201) acknowledged.push(answer.body.id as string);
          else refused.push(answer.status);
        } catch {
          // the connection was closed: not acknowledged
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    const writers = Promise.all(clients.map(writer));
    await until(() => acknowledged.length >= 40, '40 acknowledged writes');
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await writers;
    for (const client of clients) client.close();
    expect(refused.filter((status) => status !== 503)).toEqual([]);
    expect(logLines(server).some((line) => line.msg === 'Shutdown: every server process drained.')).toBe(true);
    expect(logLines(server).filter((line) => line.msg === 'Shutdown: drained.')).toHaveLength(2);
    const db = new Database(join(dir, 'crux.sqlite'), { readonly: true });
    try {
      const stored = new Set(
        (db.prepare("SELECT id FROM topics WHERE title LIKE 'Through the shutdown %'").all() as { id: string }[]).map((r) => r.id),
      );
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      db.close();
    }
  }, 60_000);
});

describe('SERVER_PROCESSES=2: a drain that runs out of time', () => {
  it('a request that never finishes holds its process past SHUTDOWN_TIMEOUT_MS: it exits 1, and so does the primary', async () => {
    const stuckDir = mkdtempSync(join(tmpdir(), 'crux-processes-stuck-'));
    try {
      const stuckServer = await startServerProcess(stuckDir, undefined, {
        SERVER_PROCESSES: '2',
        SHUTDOWN_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'info',
        CRUX_TEST_PROCESS_HEADER: '1',
      });
      const user = await createTestUser('Stuck Processes');
      // A write whose body never finishes arriving: the request stays in flight in whichever process took it.
      const stuck = request(`${stuckServer.url}/api/topics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '1000', authorization: `Bearer ${user.token}` },
      });
      stuck.on('error', () => {}); // cut when the process exits
      await new Promise<void>((resolve) => stuck.write('{"title": "Never fin', () => resolve()));
      // Its headers were on the wire before these requests were sent: once both processes have answered
      // one, the process holding it has read them and the write is in flight (its handler waits for the body).
      for (const client of await pinEach(stuckServer.url, 2)) client.close();
      const exited = new Promise<number | null>((resolve) => stuckServer.child.once('exit', (code) => resolve(code)));
      stuckServer.child.kill('SIGTERM');
      expect(await exited).toBe(1);
      const messages = logLines(stuckServer).map((line) => line.msg);
      expect(messages.some((msg) => msg.startsWith('Shutdown: still busy'))).toBe(true);
      expect(messages).toContain('Shutdown: not every server process drained (see their lines above).');
    } finally {
      rmSync(stuckDir, { recursive: true, force: true });
    }
  }, 60_000);
});
