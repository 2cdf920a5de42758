// The header's score (data.score$()): the rank follows other people's points, not only the
// user's own (someone passing them moves their rank), and the last answer is kept on the
// device, so after an offline reload the header still shows points and rank; a request the
// network fails keeps it too, and is an outage, not an error in the console.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserScore } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic, upvote } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe("the header's points and rank", () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let a: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, cy] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Cy')]);
    // Ada leads with 1 point.
    const adasTopic = await makeTopic(apiClient(server.url, ada.token));
    await upvote(apiClient(server.url, bob.token), 'topic', adasTopic.id);
  });
  afterAll(async () => {
    await a?.close();
    await server.stop();
  });

  it('shows a new rank when someone else passes the user, with no change to their own points', async () => {
    a = await startClient(server.url, { user: ada });
    // One subscription, as the header holds it (a new one would ask the server anyway).
    let latest: UserScore | null | undefined;
    const subscription = a.data.score$().subscribe((score) => (latest = score));
    try {
      await expect.poll(() => latest, { timeout: 10_000 }).toEqual({ uid: ada.uid, points: 1, rank: 1 });
      // Her profile (her points) is on the device and no score request is in flight: what
      // follows changes only other people's points.
      await until(a.data.preferences$(), (p) => p !== null);
      const scoreCalls = (list: { path: string }[]) => list.filter((r) => r.path.includes('/score')).length;
      await expect.poll(() => scoreCalls(a!.requests) === scoreCalls(a!.responses), { timeout: 10_000 }).toBe(true);

      // Cy gets 2 points: Ada's points do not move, her rank does.
      const bobApi = apiClient(server.url, bob.token);
      for (const topic of [await makeTopic(apiClient(server.url, cy.token)), await makeTopic(apiClient(server.url, cy.token))]) {
        await upvote(bobApi, 'topic', topic.id);
      }
      // Well inside the 30 s interval: the replicated topics are what make it ask again.
      await expect.poll(() => latest, { timeout: 15_000 }).toEqual({ uid: ada.uid, points: 1, rank: 2 });
    } finally {
      subscription.unsubscribe();
    }
  });

  it('keeps the last score on the device: an offline reload still shows points and rank', async () => {
    const { indexedDB, prefix } = a!;
    await a!.close();
    a = await startClient(server.url, { user: ada, indexedDB, prefix, startOffline: true });
    const offline = await until(a.data.score$(), (s) => s !== null);
    expect(offline).toEqual({ uid: ada.uid, points: 1, rank: 2 });
    expect(a.requests.filter((r) => r.path.includes('/score'))).toEqual([]);
  });

  it('a score request the network fails keeps the last score and logs no error', async () => {
    const { indexedDB, prefix } = a!;
    await a!.close();
    // The score request meets a dropped connection (fetch's TypeError), with no 'offline' event.
    a = await startClient(server.url, {
      user: ada,
      indexedDB,
      prefix,
      beforeFetch: async (path) => {
        if (path.includes('/score')) throw new TypeError('Failed to fetch');
      },
    });
    const errors = vi.spyOn(console, 'error');
    try {
      const seen: (UserScore | null)[] = [];
      const subscription = a.data.score$().subscribe((score) => seen.push(score));
      await expect.poll(() => a!.requests.some((r) => r.path.includes('/score')), { timeout: 10_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      subscription.unsubscribe();
      expect(seen.at(-1)).toEqual({ uid: ada.uid, points: 1, rank: 2 });
      expect(errors.mock.calls.filter((call) => String(call[0]).includes('score'))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});
