// A device keeps its working set of topics, not the site: the pages of the lists it showed, the
// topics it opened or was linked to, the user's own and unsent ones. Past its storage budget the least
// recently seen leave first, never an unsent change or the user's own topic; offline a list shows what
// the device holds and says so. Against the real server, on a site of 3,000 topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, PAGE_SIZE } from '../../shared/constants.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { storedRecords } from '../fixtures/indexeddb.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SITE_TOPICS = 3_000;

/** Ids of the live topic records in the profile's IndexedDB, read without RxDB. */
async function storedTopicIds(client: TestClient): Promise<string[]> {
  const records = await storedRecords(client.indexedDB, /-public--\d+--topics$/);
  return records.filter((record) => record._deleted !== true && typeof record.id === 'string').map((record) => String(record.id));
}

describe('the working set of topics', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const clients: TestClient[] = [];
  const start = async (options: Parameters<typeof startClient>[1] = {}) => {
    const client = await startClient(server.url, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    // One topic through the API makes Bob's user row; the rest of his are written straight into the store.
    await makeTopic(apiClient(server.url, bob.token), { title: 'The first topic of the site' });
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    await server.store.transaction(async () => {
      for (let i = 0; i < SITE_TOPICS; i++) {
        await server.store.topics.insert({
          id: `site-topic-${String(i).padStart(5, '0')}`,
          title: `Site topic number ${i}`,
          category: CATEGORIES[i % CATEGORIES.length]!,
          creator_uid: bob.uid,
          created_at: new Date(base + i * 60_000).toISOString(),
          seq: await server.store.nextSeq(),
        });
      }
    });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await server.stop();
  });

  it('a new device keeps only the topics its screens showed, read page by page and by id', async () => {
    const device = await start();
    const first = await until(device.data.topics$({ sort: 'new' }), (list) => list.length === PAGE_SIZE);
    expect(first.map((topic) => topic.id)).toContain('site-topic-02999');
    // Infinite scroll: the next page.
    const two = await until(device.data.topics$({ sort: 'new', limit: 2 * PAGE_SIZE }), (list) => list.length === 2 * PAGE_SIZE);
    // Another category and sort.
    const health = await until(device.data.topics$({ sort: 'top', category: 'Health' }), (list) => list.length === PAGE_SIZE);
    expect(health.every((topic) => topic.categories.includes('Health'))).toBe(true);
    // A topic linked to (never in a list shown).
    const linked = await until(device.data.topic$('site-topic-00007'), (topic) => topic !== undefined);
    expect(linked?.title).toBe('Site topic number 7');

    const shown = new Set([...two, ...health].map((topic) => topic.id).concat('site-topic-00007'));
    await expect.poll(async () => (await storedTopicIds(device)).sort(), { timeout: 10_000 }).toEqual([...shown].sort());
    expect(shown.size).toBeLessThan(3 * PAGE_SIZE + 1);
    // Never the whole site: no pull from a checkpoint of every topic.
    expect(device.requests.some((request) => request.path.startsWith('/api/sync/topics/pull?'))).toBe(false);
    expect((await until(device.data.deviceStorage$(), (usage) => usage.topics === shown.size)).bytes).toBeGreaterThan(0);
  });

  it('eviction honours the budget and keeps unsent changes and the user’s own topics', async () => {
    const device = await start({ user: ada });
    // Ada's own topic, shown first (so among the least recently seen).
    const own = await makeTopic(apiClient(server.url, ada.token), { title: 'Ada asks her own question' });
    await until(device.data.topic$(own.id), (topic) => !!topic);
    // Three of Bob's topics seen next, then three pages of a list.
    const early = ['site-topic-00011', 'site-topic-00012', 'site-topic-00013'];
    for (const id of early) await until(device.data.topic$(id), (t) => !!t);
    await until(device.data.topics$({ sort: 'new', limit: 3 * PAGE_SIZE }), (list) => list.length === 3 * PAGE_SIZE);
    // An unsent topic.
    device.goOffline();
    const unsent = (await device.data.createTopic({ title: 'Written on the train', category: 'Science' })).id;
    await device.data.setStorageBudget(4_000);

    const kept = await storedTopicIds(device);
    const usage = await until(device.data.deviceStorage$(), (u) => u.budget === 4_000);
    expect(usage.bytes).toBeLessThanOrEqual(4_000);
    expect(usage.topics).toBe(kept.length);
    expect(kept.length).toBeGreaterThan(2);
    expect(kept.length).toBeLessThan(3 * PAGE_SIZE);
    expect(kept).toContain(unsent);
    expect(kept).toContain(own.id);
    // The least recently seen left first.
    for (const id of early) expect(kept).not.toContain(id);

    // The unsent topic still goes out, once.
    device.goOnline();
    await until(device.data.topic$(unsent), (t) => !!t && !t.isPending, 20_000);
    expect(await countRows(server.db, 'topics', 'id = ?', unsent)).toBe(1);
  });

  it('offline, a list shows the topics saved on this device and says how many', async () => {
    const device = await start();
    const online = await until(device.data.topicList$({ sort: 'hot' }), (list) => list.topics.length === PAGE_SIZE);
    expect(online.savedOnDevice).toBeNull();
    await until(device.data.topic$('site-topic-00042'), (topic) => !!topic);
    const held = (await storedTopicIds(device)).length;
    expect(held).toBe(PAGE_SIZE + (online.topics.some((t) => t.id === 'site-topic-00042') ? 0 : 1));

    device.goOffline();
    const offline = await until(device.data.topicList$({ sort: 'new', limit: 100 }), (list) => list.savedOnDevice !== null);
    expect(offline.savedOnDevice).toBe(held);
    expect(offline.topics.map((t) => t.id).sort()).toEqual((await storedTopicIds(device)).sort());
    // Search and categories work over what the device holds.
    const found = await until(device.data.topicList$({ search: 'number 42', sort: 'new' }), (list) => list.savedOnDevice !== null);
    expect(found.topics.map((t) => t.id)).toEqual(['site-topic-00042']);
    expect(found.savedOnDevice).toBe(1);
  });
});
