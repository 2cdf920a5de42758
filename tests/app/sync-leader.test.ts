// One live stream per browser: tabs of one profile elect a leader that runs the
// replication and the stream; the others read the shared database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('leader election across tabs', () => {
  let server: TestServer;
  let ada: TestUser;
  const tabs: TestClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(async () => {
    for (const tab of tabs) await tab.close();
    await server.stop();
  });

  it('runs one stream for two tabs, shares what it pulls, and hands over when the leader closes', async () => {
    const one = await startClient(server.url, { asTab: true });
    tabs.push(one);
    const two = await startClient(server.url, { asTab: true, indexedDB: one.indexedDB, prefix: one.prefix });
    tabs.push(two);
    // Either tab may win the election; exactly one does.
    const isLeader = (tab: TestClient) => until(tab.data.status$, () => true).then((s) => s.isLeader);
    let leaders: boolean[] = [];
    for (let i = 0; i < 300 && leaders.filter(Boolean).length !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      leaders = [await isLeader(one), await isLeader(two)];
    }
    expect(leaders.filter(Boolean)).toHaveLength(1);
    const [first, second] = leaders[0] ? [one, two] : [two, one];
    const streams = (tab: TestClient) => tab.requests.filter((r) => r.path.startsWith('/api/sync/stream')).length;

    const topic = await makeTopic(apiClient(server.url, ada.token), { title: 'Seen in both tabs' });
    await until(first.data.topic$(topic.id), (t) => !!t);
    // The follower reads it from the shared database: it made no request at all.
    await until(second.data.topic$(topic.id), (t) => !!t);
    expect((await until(second.data.status$, () => true)).isLeader).toBe(false);
    expect(streams(first)).toBe(1);
    expect(second.requests).toEqual([]);

    await first.close();
    tabs.splice(tabs.indexOf(first), 1);
    await until(second.data.status$, (s) => s.isLeader, 20_000);
    const later = await makeTopic(apiClient(server.url, ada.token), { title: 'After the handover' });
    await until(second.data.topic$(later.id), (t) => !!t);
    expect(streams(second)).toBe(1);
  });
});
