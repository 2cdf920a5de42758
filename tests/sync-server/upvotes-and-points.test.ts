// /api/upvotes and the points, rank and leaderboard rules (docs/RULES.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import type { LeaderboardEntry } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, unvote, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('upvotes', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
  });
  afterAll(() => server.stop());

  it.each(['topic', 'response'] as const)('on a %s: POST → 201, again → 200, DELETE → 204, DELETE again → 204', async (type) => {
    const topic = await makeTopic(as(ada));
    const target = type === 'topic' ? topic : await makeResponse(as(ada), { topic_id: topic.id });
    const path = type === 'topic' ? `/topics/${target.id}` : `/responses/${target.id}`;

    const added = await as(bob).post('/upvotes', { target_type: type, target_id: target.id, target_creator_uid: ada.uid });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ target_type: type, target_id: target.id, score: 1, user_has_upvoted: true });
    expect((await as(bob).get(path)).body).toMatchObject({ score: 1, user_has_upvoted: true, user_has_downvoted: false });

    const again = await as(bob).post('/upvotes', { target_type: type, target_id: target.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ target_type: type, target_id: target.id, score: 1, user_has_upvoted: true });
    expect(await countRows(server.db, 'votes', 'target_id = ?', target.id)).toBe(1);

    const removed = await as(bob).del('/upvotes', { target_type: type, target_id: target.id });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await as(bob).get(path)).body).toMatchObject({ score: 0, user_has_upvoted: false });

    expect((await as(bob).del('/upvotes', { target_type: type, target_id: target.id })).status).toBe(204);
    expect((await as(bob).get(path)).body.score).toBe(0);

    const readded = await as(bob).post('/upvotes', { target_type: type, target_id: target.id });
    expect(readded.status).toBe(201);
    expect(readded.body.score).toBe(1);
  });

  it('DELETE without a previous vote → 204 and nothing changes', async () => {
    const topic = await makeTopic(as(ada));
    await upvote(as(bob), 'topic', topic.id);
    expect((await as(carol).del('/upvotes', { target_type: 'topic', target_id: topic.id })).status).toBe(204);
    expect((await as().get(`/topics/${topic.id}`)).body.score).toBe(1);
  });

  it('each user counts once; score is the number of upvoters', async () => {
    const topic = await makeTopic(as(ada));
    await upvote(as(bob), 'topic', topic.id);
    await upvote(as(bob), 'topic', topic.id);
    await upvote(as(carol), 'topic', topic.id);
    await upvote(as(ada), 'topic', topic.id);
    expect((await as().get(`/topics/${topic.id}`)).body.score).toBe(3);
    await unvote(as(carol), 'topic', topic.id);
    expect((await as().get(`/topics/${topic.id}`)).body.score).toBe(2);
  });

  it('without a token → 401 with "You must be logged in to vote." for POST and DELETE; invalid token → 401', async () => {
    const topic = await makeTopic(as(ada));
    const post = await as().post('/upvotes', { target_type: 'topic', target_id: topic.id });
    expect(post.status).toBe(401);
    expect(post.body.error).toBe(MSG.loginToVote);
    const del = await as().del('/upvotes', { target_type: 'topic', target_id: topic.id });
    expect(del.status).toBe(401);
    expect(del.body.error).toBe(MSG.loginToVote);
    const bad = await as().post('/upvotes', { target_type: 'topic', target_id: topic.id }, { headers: { authorization: 'Bearer forged' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe(MSG.invalidToken);
    expect((await as().get(`/topics/${topic.id}`)).body.score).toBe(0);
  });

  it('a user can only remove their own vote: DELETE by another user leaves it', async () => {
    const topic = await makeTopic(as(ada));
    await upvote(as(bob), 'topic', topic.id);
    expect((await as(carol).del('/upvotes', { target_type: 'topic', target_id: topic.id })).status).toBe(204);
    expect((await as(bob).get(`/topics/${topic.id}`)).body).toMatchObject({ score: 1, user_has_upvoted: true });
  });

  it.each([
    ['unknown topic', { target_type: 'topic', target_id: 'no-such-topic' }, 404, MSG.targetNotFound],
    ['unknown response', { target_type: 'response', target_id: 'no-such-response' }, 404, MSG.targetNotFound],
    ['bad target_type', { target_type: 'user', target_id: 'x' }, 400, 'target_type must be topic or response.'],
    ['missing target_id', { target_type: 'topic' }, 400, 'target_id is required.'],
    ['unknown field', { target_type: 'topic', target_id: 'x', weight: 10 }, 400, 'Unknown field: weight.'],
  ])('%s → %d', async (_label, body, status, message) => {
    const before = await countRows(server.db, 'votes');
    for (const res of [await as(bob).post('/upvotes', body), await as(bob).del('/upvotes', body)]) {
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(message);
    }
    expect(await countRows(server.db, 'votes')).toBe(before);
  });

  it('a topic id is not a response id: the target type matters', async () => {
    const topic = await makeTopic(as(ada));
    const res = await as(bob).post('/upvotes', { target_type: 'response', target_id: topic.id });
    expect(res.status).toBe(404);
  });
});

describe('points and rank', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const score = async (user: TestUser) =>
    (await as(user).get(`/users/${user.uid}/score`)).body as { uid: string; points: number; rank: number };

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol, dave] = await Promise.all([
      createTestUser('Ada'),
      createTestUser('Bob'),
      createTestUser('Carol'),
      createTestUser(null),
    ]);
  });
  afterAll(() => server.stop());

  it('earns +1 per upvote by another user, nothing for self-votes, and loses it on removal', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id });
    expect((await score(ada)).points).toBe(0);

    await upvote(as(ada), 'topic', topic.id);
    await upvote(as(ada), 'response', response.id);
    expect((await as().get(`/topics/${topic.id}`)).body.score).toBe(1); // self-votes are allowed…
    expect((await score(ada)).points).toBe(0); // …but earn nothing

    await upvote(as(bob), 'topic', topic.id);
    expect((await score(ada)).points).toBe(1);
    await upvote(as(carol), 'response', response.id);
    expect((await score(ada)).points).toBe(2);
    await upvote(as(carol), 'response', response.id); // repeated POST: no double count
    expect((await score(ada)).points).toBe(2);

    await unvote(as(bob), 'topic', topic.id);
    expect((await score(ada)).points).toBe(1);
    await unvote(as(ada), 'topic', topic.id); // removing a self-vote takes nothing away
    expect((await score(ada)).points).toBe(1);
    expect((await score(bob)).points).toBe(0);
    expect((await score(carol)).points).toBe(0);

    await unvote(as(carol), 'response', response.id);
    expect((await score(ada)).points).toBe(0);
  });

  it('the client-sent target_creator_uid is ignored: the real creator earns the point', async () => {
    const topic = await makeTopic(as(carol));
    const bobBefore = (await score(bob)).points;
    const carolBefore = (await score(carol)).points;
    await as(dave).post('/upvotes', { target_type: 'topic', target_id: topic.id, target_creator_uid: bob.uid });
    expect((await score(bob)).points).toBe(bobBefore);
    expect((await score(carol)).points).toBe(carolBefore + 1);
    await unvote(as(dave), 'topic', topic.id);
    expect((await score(carol)).points).toBe(carolBefore);
  });

  describe('competition ranking and the leaderboard', () => {
    let ranked: TestServer;
    let users: TestUser[];
    const at = (user?: TestUser) => apiClient(ranked.url, user?.token);

    beforeAll(async () => {
      ranked = await startTestServer();
      // u0: 3 points, u1: 2, u2: 2, u3: 1, u4: 0 (self-vote only), u5: voter only.
      users = await Promise.all(['Top', 'Tied A', 'Tied B', 'Fourth', 'Selfish', null].map((name) => createTestUser(name)));
      const voters = await Promise.all(['V1', 'V2', 'V3'].map((name) => createTestUser(name)));
      const topics = [];
      for (const user of users.slice(0, 5)) topics.push(await makeTopic(at(user)));
      const votes: [number, number][] = [
        [0, 0],
        [1, 0],
        [2, 0],
        [0, 1],
        [1, 1],
        [1, 2],
        [2, 2],
        [0, 3],
      ];
      for (const [voter, topic] of votes) await upvote(at(voters[voter]), 'topic', topics[topic]!.id);
      await upvote(at(users[4]), 'topic', topics[4]!.id);
    });
    afterAll(() => ranked.stop());

    it('GET /api/users/leaderboard: points > 0, best first, ties share a rank ("1224"), no auth needed', async () => {
      const res = await at().get<LeaderboardEntry[]>('/users/leaderboard');
      expect(res.status).toBe(200);
      const [top, tiedA, tiedB, fourth] = users;
      const tied = [
        { uid: tiedA!.uid, display_name: 'Tied A', points: 2, rank: 2 },
        { uid: tiedB!.uid, display_name: 'Tied B', points: 2, rank: 2 },
      ];
      expect(res.body).toHaveLength(4);
      expect(res.body[0]).toEqual({ uid: top!.uid, display_name: 'Top', points: 3, rank: 1 });
      expect(res.body.slice(1, 3)).toEqual(expect.arrayContaining(tied));
      expect(res.body[3]).toEqual({ uid: fourth!.uid, display_name: 'Fourth', points: 1, rank: 4 });
    });

    it.each([
      [0, 3, 1],
      [1, 2, 2],
      [2, 2, 2],
      [3, 1, 4],
    ])('user %d has %d points and rank %d', async (index, expectedPoints, expectedRank) => {
      const user = users[index]!;
      const res = await at(users[5]).get(`/users/${user.uid}/score`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ uid: user.uid, points: expectedPoints, rank: expectedRank });
    });

    it('a user with no points ranks after everyone who has some', async () => {
      expect((await at(users[4]).get(`/users/${users[4]!.uid}/score`)).body).toMatchObject({ points: 0, rank: 5 });
    });

    it('a removed vote moves the ranks', async () => {
      const extra = await createTestUser('Extra voter');
      const tiedB = users[2]!;
      const topic = (await at().get(`/topics?limit=100`)).body.find((t: { creator_uid: string }) => t.creator_uid === tiedB.uid);
      await upvote(at(extra), 'topic', topic.id);
      expect((await at(tiedB).get(`/users/${tiedB.uid}/score`)).body).toMatchObject({ points: 3, rank: 1 });
      expect((await at(tiedB).get(`/users/${users[1]!.uid}/score`)).body).toMatchObject({ points: 2, rank: 3 });
      await unvote(at(extra), 'topic', topic.id);
      expect((await at(tiedB).get(`/users/${tiedB.uid}/score`)).body).toMatchObject({ points: 2, rank: 2 });
    });
  });

  describe('leaderboard size', () => {
    let big: TestServer;
    beforeAll(async () => {
      big = await startTestServer();
      // 105 users with points, written straight into the store (the API would need 105 emulator voters).
      const insert = (uid: string, name: string, points: number) =>
        big.db.run(
          "INSERT INTO users (uid, display_name, points, created_at) VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z')",
          uid,
          name,
          points,
        );
      for (let i = 0; i < 105; i++) await insert(`seeded-${i}`, `Seeded ${i}`, 1 + (i % 50));
      await insert('zero', 'Zero', 0);
    });
    afterAll(() => big.stop());

    it('lists at most 100 entries, best first, with competition ranks', async () => {
      const res = await apiClient(big.url).get<LeaderboardEntry[]>('/users/leaderboard');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(100);
      const pointsList = res.body.map((e) => e.points);
      expect(pointsList).toEqual([...pointsList].sort((a, b) => b - a));
      expect(res.body.every((e) => e.points > 0)).toBe(true);
      // Points 1 + (i % 50) for i < 105: 50, 49, … 6 twice each, 5 … 1 three times.
      expect(res.body.slice(0, 5).map((e) => [e.points, e.rank])).toEqual([
        [50, 1],
        [50, 1],
        [49, 3],
        [49, 3],
        [48, 5],
      ]);
      // 90 entries hold 50…6; the last 10 are 5, 5, 5, 4, 4, 4, 3, 3, 3, 2.
      expect(res.body.slice(90).map((e) => [e.points, e.rank])).toEqual([
        [5, 91],
        [5, 91],
        [5, 91],
        [4, 94],
        [4, 94],
        [4, 94],
        [3, 97],
        [3, 97],
        [3, 97],
        [2, 100],
      ]);
      expect(res.body.map((e) => e.uid)).not.toContain('zero');
    });
  });
});
