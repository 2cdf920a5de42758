// The data layer's remote reads: the leaderboard with the signed-in user's own score (even
// when not listed), kept with its fetch time for offline reading, and user pages (404 = not found).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardCopy, RemoteCopy } from '../../app/src/data/index.js';
import type { LeaderboardEntry } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic, upvote } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('leaderboard and user pages in the data layer', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let a: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const topic = await makeTopic(apiClient(server.url, bob.token));
    await upvote(apiClient(server.url, ada.token), 'topic', topic.id);
    a = await startClient(server.url, { user: ada });
  });
  afterAll(async () => {
    await a?.close();
    await server.stop();
  });

  it("fetches the board and the caller's own score when they are not listed, then reads the kept copy offline", async () => {
    const online = await until(a.data.leaderboard$(), (c) => !c.loading && c.value?.me?.uid === ada.uid);
    // Asked with ?include=persuasion: each entry carries the part of its points earned by Δ.
    expect(online.value!.entries).toEqual([{ uid: bob.uid, display_name: 'Bob', points: 1, persuasion_points: 0, rank: 1 }]);
    // Not listed: her own score, asked with ?include=persuasion too.
    expect(online.value!.me).toEqual({ uid: ada.uid, points: 0, rank: 2, persuasion_points: 0 });
    expect(online.stale).toBe(false);
    expect(Date.now() - Date.parse(online.fetchedAt!)).toBeLessThan(10_000);

    a.goOffline();
    const offline = await until(a.data.leaderboard$(), (c) => c.stale);
    expect(offline).toMatchObject({ value: online.value, fetchedAt: online.fetchedAt, error: null, loading: false });
    a.goOnline();
  });

  it('stays live while open: points moved by someone else show without asking again', async () => {
    let latest: RemoteCopy<LeaderboardCopy> | undefined;
    const subscription = a.data.leaderboard$().subscribe((copy) => (latest = copy));
    try {
      await expect.poll(() => latest?.value?.me?.uid, { timeout: 10_000 }).toBe(ada.uid);
      const before = latest!.value!.me!.points;
      // Bob upvotes a topic of Ada's: her profile's points replicate, and the open board follows.
      const adasTopic = await makeTopic(apiClient(server.url, ada.token));
      await upvote(apiClient(server.url, bob.token), 'topic', adasTopic.id);
      await expect.poll(() => latest?.value?.me?.points, { timeout: 10_000 }).toBe(before + 1);
      const board = (await apiClient(server.url).get<LeaderboardEntry[]>('/users/leaderboard?include=persuasion')).body;
      expect(latest!.value!.entries).toEqual(board);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('reads a user page, and says not found for an unknown uid', async () => {
    const page = await until(a.data.userProfile$(bob.uid), (c) => !c.loading && c.value !== null);
    expect(page.value).toMatchObject({ uid: bob.uid, display_name: 'Bob', points: 1, rank: 1 });
    expect(page.value!.topics).toHaveLength(1);
    const missing = await until(a.data.userProfile$('nobody-here'), (c) => !c.loading);
    expect(missing).toMatchObject({ value: null, notFound: true, error: null });
  });
});
