// Answers kept as ready bytes between writes (the leaderboard, a signed-out reader's page of
// a topic's roots) are the same as a fresh read, and every write that changes them is seen at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardEntry, Response } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, unvote, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('answers kept between writes', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, cy] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Cy')]);
  });
  afterAll(() => server.stop());

  it('the leaderboard: the same bytes again, points moved by a vote and taken back seen at once, in both shapes', async () => {
    const topic = await makeTopic(as(ada), { title: 'Kept leaderboard' });
    const board = async (query = '') => {
      const res = await as().get<LeaderboardEntry[]>(`/users/leaderboard${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      return res;
    };
    const points = async (query = '') => (await board(query)).body.find((entry) => entry.uid === ada.uid)?.points ?? 0;
    const first = await board();
    expect((await board()).text).toBe(first.text);
    const before = await points();
    await upvote(as(bob), 'topic', topic.id);
    expect(await points()).toBe(before + 1);
    expect(await points('?include=persuasion')).toBe(before + 1);
    expect((await board('?include=persuasion')).body.find((entry) => entry.uid === ada.uid)).toHaveProperty('persuasion_points', 0);
    await unvote(as(bob), 'topic', topic.id);
    expect(await points()).toBe(before);
    expect(await points('?include=persuasion')).toBe(before);
  });

  it("a signed-out page of roots: a signed-in reader's page without their upvote; new, voted, edited and deleted roots seen at once", async () => {
    const topic = await makeTopic(as(ada), { title: 'Kept roots' });
    const first = await makeResponse(as(ada), { topic_id: topic.id, content: 'The first root' });
    const page = async (query = '') => {
      const res = await as().get<Response[]>(`/responses?topic_id=${topic.id}${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      return res;
    };
    const kept = await page();
    expect((await page()).text).toBe(kept.text);
    expect(kept.body.map((r) => r.id)).toEqual([first.id]);

    const second = await makeResponse(as(bob), { topic_id: topic.id, content: 'A second root' });
    expect((await page()).body.map((r) => r.id)).toEqual([first.id, second.id]);

    await upvote(as(cy), 'response', first.id);
    const voted = (await page()).body[0]!;
    expect(voted).toMatchObject({ id: first.id, score: 1, user_has_upvoted: false });
    // The voter's own page says they upvoted; the signed-out page is everyone else's view of the same rows.
    const own = await as(cy).get<Response[]>(`/responses?topic_id=${topic.id}`);
    expect(own.body[0]).toMatchObject({ id: first.id, score: 1, user_has_upvoted: true });
    expect(own.body.map((r) => ({ ...r, user_has_upvoted: false }))).toEqual((await page()).body);

    expect((await as(ada).put(`/responses/${first.id}`, { content: 'The first root, edited' })).status).toBe(200);
    expect((await page()).body[0]).toMatchObject({ id: first.id, content: 'The first root, edited' });

    // A page of one: its cursor, kept with it, says where the next starts.
    const one = await page('&limit=1');
    expect(one.body.map((r) => r.id)).toEqual([first.id]);
    const cursor = one.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    expect((await page(`&limit=1&cursor=${cursor}`)).body.map((r) => r.id)).toEqual([second.id]);

    expect((await as(bob).del(`/responses/${second.id}`)).status).toBe(204);
    expect((await page()).body.map((r) => r.id)).toEqual([first.id]);
    expect((await page('&limit=1')).headers.get('x-next-cursor')).toBeNull();
  });

  it('a kept page over the compression threshold: compressed as the middleware would, the same text in every encoding', async () => {
    const topic = await makeTopic(as(ada), { title: 'Kept and compressed' });
    for (let i = 0; i < 12; i++)
      await makeResponse(as(ada), { topic_id: topic.id, content: `Root ${i}: ${'a long argument '.repeat(60)}` });
    const url = `${server.url}/api/responses?topic_id=${topic.id}`;
    const read = async (encoding: string) => {
      const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      return { encoding: res.headers.get('content-encoding'), vary: res.headers.get('vary'), text: await res.text() };
    };
    const plain = await read('identity');
    expect(plain.encoding).toBeNull();
    expect(plain.text.length).toBeGreaterThan(8 * 1024);
    for (const encoding of ['br', 'gzip']) {
      // Twice: the first compresses, the second answers the kept copy.
      for (let round = 0; round < 2; round++) expect(await read(encoding)).toEqual({ encoding, vary: 'Accept-Encoding', text: plain.text });
    }
  });
});
