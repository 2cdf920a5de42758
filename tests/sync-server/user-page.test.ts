// GET /api/users/{uid}: a user's public page (name, points, rank, topics, responses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import type { UserProfile } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('GET /api/users/{uid}', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(() => server.stop());

  it('is readable signed out: name, points, rank, live topics and responses, newest first', async () => {
    const first = await makeTopic(as(ada), { title: 'First topic' });
    const second = await makeTopic(as(ada), { title: 'Second topic' });
    const gone = await makeTopic(as(ada), { title: 'Deleted topic' });
    expect((await as(ada).del(`/topics/${gone.id}`)).status).toBe(204);
    const long = 'x'.repeat(500);
    const reply = await makeResponse(as(ada), { topic_id: first.id, content: long });
    await makeResponse(as(bob), { topic_id: first.id });
    await upvote(as(bob), 'topic', second.id);

    const res = await as().get<UserProfile>(`/users/${ada.uid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: ada.uid, display_name: 'Ada', points: 1, rank: 1 });
    expect(res.body.topics.map((t) => t.title)).toEqual(['Second topic', 'First topic']);
    expect(res.body.topics[0]).toEqual({
      id: second.id,
      title: 'Second topic',
      created_at: second.created_at,
      score: 1,
      responses_count: 0,
    });
    expect(res.body.responses).toHaveLength(1);
    expect(res.body.responses[0]).toMatchObject({ id: reply.id, topic_id: first.id, topic_title: 'First topic', type: 'for' });
    expect(Array.from(res.body.responses[0]!.content)).toHaveLength(201); // 200 + ellipsis
  });

  it('ranks by competition ranking like the leaderboard', async () => {
    const topic = await makeTopic(as(bob));
    await upvote(as(ada), 'topic', topic.id);
    // Ada and Bob both have 1 point: they share rank 1.
    const [a, b] = await Promise.all([as().get<UserProfile>(`/users/${ada.uid}`), as().get<UserProfile>(`/users/${bob.uid}`)]);
    expect(a.body.rank).toBe(1);
    expect(b.body.rank).toBe(1);
    const board = (await as().get<{ uid: string; rank: number }[]>('/users/leaderboard')).body;
    expect(board.find((e) => e.uid === bob.uid)?.rank).toBe(b.body.rank);
  });

  it('an unknown uid → 404 "User not found."', async () => {
    const res = await as().get('/users/nobody-at-all');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: MSG.userNotFound, code: 'not-found' });
  });

  it('with ?missing=null an unknown uid is 200 null (no 404 for the browser to log); a known one is its page; anything else → 400', async () => {
    const missing = await as().get('/users/nobody-here?missing=null');
    expect(missing.status).toBe(200);
    expect(missing.body).toBeNull();
    const known = await as().get<UserProfile>(`/users/${ada.uid}?missing=null`);
    expect(known.status).toBe(200);
    expect(known.body).toEqual((await as().get<UserProfile>(`/users/${ada.uid}`)).body);
    const bad = await as().get<{ error: string }>('/users/nobody-here?missing=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('missing can only be "null".');
    // A bad uid is still a 400, not a null.
    expect((await as().get(`/users/${'x'.repeat(129)}?missing=null`)).status).toBe(400);
  });

  it('a uid longer than 128 characters → 400', async () => {
    const res = await as().get(`/users/${'a'.repeat(129)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('A user id has 1 to 128 characters.');
  });

  it('does not shadow /leaderboard and /preferences', async () => {
    expect(Array.isArray((await as().get('/users/leaderboard')).body)).toBe(true);
    expect((await as().get('/users/preferences')).status).toBe(401);
  });

  // Last: it moves points and ranks the tests above count on.
  it('is kept between writes, and any write that changes it is seen at once (points, rank, new items, a rename)', async () => {
    const cy = await createTestUser('Cy');
    const page = async () => (await as().get<UserProfile>(`/users/${cy.uid}`)).body;
    const topic = await makeTopic(as(cy), { title: 'Kept page topic' });
    const before = await page();
    expect(await page()).toEqual(before); // answered from the kept page
    await upvote(as(bob), 'topic', topic.id);
    expect((await page()).points).toBe(before.points + 1);
    const reply = await makeResponse(as(cy), { topic_id: topic.id, content: 'Seen at once' });
    expect((await page()).responses.map((r) => r.id)).toContain(reply.id);
    expect((await as(cy).del(`/responses/${reply.id}`)).status).toBe(204);
    expect((await page()).responses.map((r) => r.id)).not.toContain(reply.id);
    // Another user's points move Cy's rank without touching Cy's rows.
    const bobTopic = await makeTopic(as(bob), { title: 'Bob overtakes' });
    const rankBefore = (await page()).rank;
    await upvote(as(ada), 'topic', bobTopic.id);
    await upvote(as(cy), 'topic', bobTopic.id);
    const score = await as(cy).get<{ points: number; rank: number }>(`/users/${cy.uid}/score`);
    expect(score.status).toBe(200);
    expect((await page()).rank).toBe(score.body.rank);
    expect(score.body.rank).toBeGreaterThan(rankBefore);
  });
});
