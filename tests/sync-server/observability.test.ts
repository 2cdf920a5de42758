// Logs and metrics of the real server process (docs/OPERATIONS.md "Logs"
// and "Metrics"), on both engines: one request's log lines share its X-Request-Id and carry neither
// the bearer token nor the user's e-mail (the process's whole stdout is searched); a trusted proxy's
// X-Request-Id is kept, an untrusted one is not; GET /metrics parses as the Prometheus text format
// and its counters move with requests, labelled by route pattern; it is served on METRICS_PORT and
// on the public port only to a bearer of METRICS_TOKEN.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { TEST_ENGINE, testDatabase, type TestDatabase } from '../fixtures/test-db.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface LogLine {
  reqId?: string;
  msg: string;
  level: number;
  [field: string]: unknown;
}

/** The JSON log lines written so far (every line must be JSON: a log shipper reads them). */
function logLines(server: ServerProcess): LogLine[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

/** Waits until the async log destination has written what `done` looks for. */
async function until<T>(read: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting for log lines');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// The Prometheus text exposition format, line by line (no parser package is installed): comments are
// HELP or TYPE, every other line a sample `name{label="value",…} number`.
const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${METRIC_NAME})(?:\\{(.*)\\})? (-?(?:[0-9.e+-]+|NaN|\\+Inf|-Inf))(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      expect(line, line).toMatch(new RegExp(`^# HELP ${METRIC_NAME} .*$`));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      expect(TYPES.has(type!), line).toBe(true);
      typed.add(name!);
      continue;
    }
    const match = SAMPLE.exec(line);
    expect(match, `not a sample line: ${line}`).not.toBeNull();
    const [, name, labelText = '', value] = match!;
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    let consumed = 0;
    for (let m = LABEL.exec(labelText); m; m = LABEL.exec(labelText)) {
      labels[m[1]!] = m[2]!;
      consumed = LABEL.lastIndex;
    }
    expect(consumed, `bad labels: ${line}`).toBe(labelText.length);
    // Every sample belongs to a family declared by a TYPE line above it (histograms add suffixes).
    expect(typed.has(name!) || typed.has(name!.replace(/_(bucket|sum|count|total|created)$/, '')), line).toBe(true);
    samples.push({ name: name!, labels, value: Number(value) });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe('logs and metrics of a real server process', () => {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  let ada: TestUser;
  let server: ServerProcess;
  let metricsUrl: string;

  const newDatabase = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-observe-'));
    dirs.push(dir);
    const database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    databases.push(database);
    return { dir, database };
  };

  beforeAll(async () => {
    ada = await createTestUser('Ada Logs');
    const { dir, database } = await newDatabase();
    server = await startServerProcess(dir, database.url, { LOG_LEVEL: 'info', METRICS_PORT: '0', METRICS_TOKEN });
    const announced = await until(() => logLines(server).find((line) => typeof line.metricsPort === 'number'));
    metricsUrl = `http://127.0.0.1:${announced.metricsPort as number}/metrics`;
  }, 90_000);
  afterAll(async () => {
    killServerProcesses();
    for (const database of databases) await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("one request's lines share its X-Request-Id, and no line carries the token or the e-mail", async () => {
    const api = apiClient(server.url, ada.token);
    const created = await api.post('/topics', { title: 'Logged without secrets', categories: ['Science'] });
    expect(created.status).toBe(201);
    const pulled = await api.get('/sync/topics/pull?limit=50');
    expect(pulled.status).toBe(200);
    const id = pulled.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    const refused = await apiClient(server.url, 'not-a-token-but-secret-looking').get('/notifications');
    expect(refused.status).toBe(401);

    const lines = await until(() => {
      const mine = logLines(server).filter((line) => line.reqId === id);
      return mine.some((line) => line.msg === 'request') ? mine : undefined;
    });
    // The sync pull's own line and the request's line, both with the request's id.
    expect(lines.map((line) => line.msg).sort()).toEqual(['request', 'sync pull']);
    expect(lines.find((line) => line.msg === 'sync pull')).toMatchObject({ collection: 'topics', documents: expect.any(Number) });
    const request = lines.find((line) => line.msg === 'request')!;
    expect(request).toMatchObject({ method: 'GET', route: '/api/sync/:collection/pull', status: 200, uid: ada.uid });
    expect(request.ms).toEqual(expect.any(Number));
    // Every request has its line with its own id; the refused one names no user.
    const write = await until(() =>
      logLines(server).find((line) => line.reqId === created.headers.get('x-request-id') && line.msg === 'request'),
    );
    expect(write).toMatchObject({ method: 'POST', route: '/api/topics', status: 201, uid: ada.uid });
    const denied = await until(() =>
      logLines(server).find((line) => line.reqId === refused.headers.get('x-request-id') && line.msg === 'request'),
    );
    expect(denied).toMatchObject({ status: 401 });
    expect(denied.uid).toBeUndefined();

    const output = server.stdout();
    expect(output).not.toContain(ada.token);
    expect(output).not.toContain(ada.token.split('.')[1]!); // not even the token's claims
    expect(output).not.toContain('not-a-token-but-secret-looking');
    expect(output.toLowerCase()).not.toContain(ada.email.toLowerCase());
  });

  it("reuses a trusted proxy's X-Request-Id, and makes its own when the proxy is not trusted", async () => {
    // Not trusted (TRUST_PROXY unset): anyone could send the header.
    const untrusted = await fetch(`${server.url}/api/health`, { headers: { 'X-Request-Id': 'from-anyone-123' } });
    expect(untrusted.headers.get('x-request-id')).toMatch(UUID);

    const { dir, database } = await newDatabase();
    const behindProxy = await startServerProcess(dir, database.url, { LOG_LEVEL: 'info', TRUST_PROXY: 'true' });
    const kept = await fetch(`${behindProxy.url}/api/topics`, { headers: { 'X-Request-Id': 'lb-7f3a-0001' } });
    expect(kept.status).toBe(200);
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a-0001');
    const line = await until(() => logLines(behindProxy).find((l) => l.reqId === 'lb-7f3a-0001'));
    expect(line).toMatchObject({ msg: 'request', route: '/api/topics', status: 200 });
    // Even from the proxy, an id that could break a log line is replaced.
    const odd = await fetch(`${behindProxy.url}/api/health`, { headers: { 'X-Request-Id': 'two words' } });
    expect(odd.headers.get('x-request-id')).toMatch(UUID);
    // A request with none gets one.
    expect((await fetch(`${behindProxy.url}/api/health`)).headers.get('x-request-id')).toMatch(UUID);
    await behindProxy.kill();
  }, 60_000);

  it('the scrape parses and its counters move with requests, by route pattern', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = (await api.post('/topics', { title: 'Counted', categories: ['Science'] })).body as { id: string };
    const before = parseExposition(await (await fetch(metricsUrl)).text());
    const listed = { method: 'GET', route: '/api/topics', status: '200' };
    for (let i = 0; i < 3; i++) expect((await api.get('/topics')).status).toBe(200);
    expect((await api.get(`/topics/${topic.id}`)).status).toBe(200);
    expect((await api.get('/sync/topics/pull?limit=50')).status).toBe(200);
    expect((await api.post('/topics', { title: 'Counted too', categories: ['Science'] })).status).toBe(201);

    const scrape = await fetch(metricsUrl);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    const text = await scrape.text();
    const after = parseExposition(text);
    expect(valueOf(after, 'crux_http_requests_total', listed) - valueOf(before, 'crux_http_requests_total', listed)).toBe(3);
    expect(
      valueOf(after, 'crux_http_request_duration_seconds_count', listed) -
        valueOf(before, 'crux_http_request_duration_seconds_count', listed),
    ).toBe(3);
    // The pattern, never the address: no label holds the topic's id.
    expect(valueOf(after, 'crux_http_requests_total', { route: '/api/topics/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(topic.id);
    const pulled = { direction: 'pull', collection: 'topics' };
    expect(valueOf(after, 'crux_sync_documents_total', pulled)).toBeGreaterThan(valueOf(before, 'crux_sync_documents_total', pulled));
    expect(valueOf(after, 'crux_sync_duration_seconds_count', pulled) - valueOf(before, 'crux_sync_duration_seconds_count', pulled)).toBe(
      1,
    );
    // The engine's own: the SQLite group commit's batches, or the PostgreSQL pool.
    if (TEST_ENGINE === 'sqlite') {
      expect(valueOf(after, 'crux_sqlite_group_commit_size_count')).toBeGreaterThan(valueOf(before, 'crux_sqlite_group_commit_size_count'));
    } else {
      expect(after.some((s) => s.name === 'crux_pg_pool_connections' && s.labels.state === 'waiting')).toBe(true);
    }
    for (const name of [
      'crux_live_streams_open',
      'crux_db_busy_total',
      'crux_push_queue_depth',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(text).toContain(`# TYPE ${name} `);
  });

  it('is not served on the public port without the token, and is with it; the metrics port serves only /metrics', async () => {
    const url = `${server.url}/metrics`;
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(url, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    const allowed = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(parseExposition(await allowed.text()).length).toBeGreaterThan(0);
    expect((await fetch(metricsUrl.replace('/metrics', '/api/topics'))).status).toBe(404);

    // Without METRICS_TOKEN the public port has no /metrics at all (not the app's page either).
    const { dir, database } = await newDatabase();
    const plain = await startServerProcess(dir, database.url);
    const missing = await fetch(`${plain.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('# TYPE');
    await plain.kill();
  }, 60_000);
});
