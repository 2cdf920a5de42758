// /api/users: score and rank, preferences, and the display name taken from the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import type { Topic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, disableTestUser, renameTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('users', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(() => server.stop());

  describe('GET /api/users/{uid}/score', () => {
    it('without a token → 401', async () => {
      const res = await as().get(`/users/${ada.uid}/score`);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.loginToSeeScore);
    });

    it('an unknown uid → 404', async () => {
      const res = await as(ada).get('/users/nobody-at-all/score');
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(MSG.userNotFound);
    });

    it('the caller → points and rank', async () => {
      const res = await as(ada).get(`/users/${ada.uid}/score`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ uid: ada.uid, points: 0, rank: expect.any(Number) });
    });

    it("another known user's score is readable and tracks their points", async () => {
      const topic = await makeTopic(as(bob));
      await upvote(as(ada), 'topic', topic.id);
      const res = await as(ada).get(`/users/${bob.uid}/score`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ uid: bob.uid, points: 1, rank: 1 });
    });

    it('an invalid token → 401', async () => {
      const res = await as().get(`/users/${ada.uid}/score`, { headers: { authorization: 'Bearer not.a.token' } });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.invalidToken);
    });
  });

  describe('preferences', () => {
    it('GET without a token → 401 "You must be logged in to manage your preferences."', async () => {
      const res = await as().get('/users/preferences');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.loginToManagePreferences);
    });

    it('POST without a token → 401 "You must be logged in to update your preferences."', async () => {
      const res = await as().post('/users/preferences', { receive_weekly_summary: false });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.loginToUpdatePreferences);
    });

    it('receive_weekly_summary defaults to true', async () => {
      const fresh = await createTestUser('Fresh');
      const res = await as(fresh).get('/users/preferences');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ receive_weekly_summary: true });
    });

    it('POST updates the caller only and the change persists', async () => {
      const [carol, dave] = await Promise.all([createTestUser('Carol'), createTestUser('Dave')]);
      const off = await as(carol).post('/users/preferences', { receive_weekly_summary: false });
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ receive_weekly_summary: false });
      expect((await as(carol).get('/users/preferences')).body).toEqual({ receive_weekly_summary: false });
      expect((await as(dave).get('/users/preferences')).body).toEqual({ receive_weekly_summary: true });
      const on = await as(carol).post('/users/preferences', { receive_weekly_summary: true });
      expect(on.body).toEqual({ receive_weekly_summary: true });
      expect((await as(carol).get('/users/preferences')).body).toEqual({ receive_weekly_summary: true });
    });

    it.each([
      [{ receive_weekly_summary: 'no' }, 'receive_weekly_summary must be true or false.'],
      [{ receive_weekly_summary: 0 }, 'receive_weekly_summary must be true or false.'],
      [{}, 'receive_weekly_summary must be true or false.'],
      [{ receive_weekly_summary: false, uid: 'someone-else' }, 'Unknown field: uid.'],
      ['[]', 'The request body must be a JSON object.'],
      ['{"receive_weekly_summary": fals', MSG.invalidJson],
    ])('POST %j → 400 and nothing changes', async (body, message) => {
      const erin = await createTestUser('Erin');
      const res = await as(erin).post('/users/preferences', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect((await as(erin).get('/users/preferences')).body).toEqual({ receive_weekly_summary: true });
    });
  });

  describe('display name from the token', () => {
    it("is the token's name claim, and follows a rename on the next request", async () => {
      const frank = await createTestUser('Frank');
      const topic = await makeTopic(as(frank));
      expect(topic.username).toBe('Frank');
      await renameTestUser(frank, '  Franklin  ');
      // Any authenticated request carries the new claim; the server trims it.
      const read = await as(frank).get<Topic>(`/topics/${topic.id}`);
      expect(read.body.username).toBe('Franklin');
      expect((await as().get<Topic>(`/topics/${topic.id}`)).body.username).toBe('Franklin');
    });

    it('is null without a name, then set once the user picks one (username modal flow)', async () => {
      const nameless = await createTestUser(null);
      const topic = await makeTopic(as(nameless));
      expect(topic.username).toBeNull();
      await renameTestUser(nameless, 'Grace');
      expect((await as(nameless).get<Topic>(`/topics/${topic.id}`)).body.username).toBe('Grace');
    });

    it('is what the leaderboard, responses, quotes and notifications show', async () => {
      const [henry, ivy] = await Promise.all([createTestUser('Henry'), createTestUser('Ivy')]);
      const topic = await makeTopic(as(henry));
      const root = await makeResponse(as(henry), { topic_id: topic.id });
      const reply = await makeResponse(as(ivy), { parent_response_id: root.id, quoted_response_id: root.id });
      await upvote(as(ivy), 'topic', topic.id);
      await renameTestUser(henry, 'Henry II');
      await renameTestUser(ivy, 'Ivy II');
      await as(henry).get('/users/preferences');
      await as(ivy).get(`/users/${ivy.uid}/score`);
      const board = (await as().get<{ uid: string; display_name: string }[]>('/users/leaderboard')).body;
      expect(board.find((e) => e.uid === henry.uid)?.display_name).toBe('Henry II');
      expect((await as().get(`/responses/${root.id}`)).body.username).toBe('Henry II');
      expect((await as().get(`/responses/${reply.id}`)).body).toMatchObject({
        username: 'Ivy II',
        quoted_response: { username: 'Henry II' },
      });
      const notes = (await as(henry).get(`/notifications/user/${henry.uid}`)).body as { actor_display_name: string }[];
      expect(notes.map((n) => n.actor_display_name)).toEqual(['Ivy II']);
    });
  });

  it('a disabled account’s token is refused with 401', async () => {
    const mallory = await createTestUser('Mallory');
    expect((await as(mallory).get('/users/preferences')).status).toBe(200);
    await disableTestUser(mallory);
    const res = await as(mallory).post('/topics', { title: 'After ban', categories: ['Other'] });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(MSG.invalidToken);
  });
});
