// Rate limits, the app's side: a push the server refuses with 429 (too many
// writes) is not a problem to set aside. The write stays queued on the device, the
// status says how long until the retry, and it lands exactly once after the wait.
// The server's write limit is set low through RATE_LIMIT_* for this file only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const LIMITS = {
  // Two rows at once, then one every 10 s: the client's push meets a wait of up to 10 s.
  RATE_LIMIT_USER_WRITES_BURST: '2',
  RATE_LIMIT_USER_WRITES_PER_MIN: '6',
};

describe('a rate-limited push', () => {
  let server: TestServer;
  let ada: TestUser;
  let client: TestClient;
  beforeAll(async () => {
    const saved = Object.fromEntries(Object.keys(LIMITS).map((key) => [key, process.env[key]]));
    Object.assign(process.env, LIMITS);
    try {
      server = await startTestServer();
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    ada = await createTestUser('Ada');
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('stays queued, shows the wait, and lands exactly once after it', async () => {
    client = await startClient(server.url, { user: ada });
    await until(client.data.status$, (s) => s.online && s.lastSyncedAt !== null);

    // Another device of Ada's uses up her writes.
    const api = apiClient(server.url, ada.token);
    await makeTopic(api);
    await makeTopic(api);

    const topic = await client.data.createTopic({ title: 'Written while slowed down', category: 'Science' });
    const limited = await until(client.data.status$, (s) => (s.rateLimitedUntil ?? 0) > 0, 20_000);
    expect(limited.pending).toBeGreaterThanOrEqual(1);
    expect(limited.online).toBe(true);
    expect(limited.lastError).toMatch(/^You are making changes too quickly\. Try again in \d+ seconds?\.$/);
    expect(client.responses.some((r) => r.path === '/api/sync/topics/push' && r.status === 429)).toBe(true);

    // Still on the device as a pending write, not set aside as a problem, not on the server.
    expect((await firstValueFrom(client.data.topic$(topic.id)))?.isPending).toBe(true);
    expect(await firstValueFrom(client.data.syncProblems$())).toEqual([]);
    expect(await countRows(server.db, 'topics', 'id = ?', topic.id)).toBe(0);

    // After the wait it goes again by itself and lands once.
    await until(client.data.topic$(topic.id), (t) => !!t && !t.isPending, 40_000);
    expect(await countRows(server.db, 'topics', 'id = ?', topic.id)).toBe(1);
    expect(await firstValueFrom(client.data.syncProblems$())).toEqual([]);
    const pushesOfIt = client.requests.filter((r) => r.path === '/api/sync/topics/push' && r.body?.includes(topic.id));
    const answers = client.responses.filter((r) => r.path === '/api/sync/topics/push').map((r) => r.status);
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.every((status) => status === 200 || status === 429)).toBe(true);
    // Every push of it before the last was refused whole: the server holds it once.
    expect(pushesOfIt.length).toBe(answers.length);
    const status = await until(client.data.status$, (s) => !s.rateLimitedUntil && s.pending === 0);
    expect(status.lastError).toBeNull();
  }, 90_000);
});
