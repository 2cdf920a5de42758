// What devices already hold follows a rename and points changes. A
// rename re-stamps the author's topics and responses (their name is joined at
// read time), and points changes stamp the profile row, so pulls return them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileDoc, PullResponse, ResponseDoc, TopicDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, renameTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('sync re-stamps on rename and points', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(() => server.stop());

  it('a pull after a rename returns the author’s topics and responses with the new name', async () => {
    const api = apiClient(server.url, () => ada.token);
    const topic = await makeTopic(api);
    const response = await makeResponse(api, { topic_id: topic.id, content: 'Named before' });
    const anon = apiClient(server.url);
    const topics = await anon.get<PullResponse<TopicDoc>>('/sync/topics/pull?id=&seq=0&limit=1000');
    const responses = await anon.get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topic.id}&id=&seq=0&limit=1000`);
    expect(topics.body.documents.find((doc) => doc.id === topic.id)?.username).toBe('Ada');

    await renameTestUser(ada, 'Ada Lovelace');
    // Any authenticated request tells the server the new name (as the app's next request does).
    expect((await api.get('/users/preferences')).status).toBe(200);

    const topicsAfter = await anon.get<PullResponse<TopicDoc>>(
      `/sync/topics/pull?id=${topics.body.checkpoint.id}&seq=${topics.body.checkpoint.seq}&limit=1000`,
    );
    expect(topicsAfter.body.documents.find((doc) => doc.id === topic.id)?.username).toBe('Ada Lovelace');
    const responsesAfter = await anon.get<PullResponse<ResponseDoc>>(
      `/sync/responses/pull?topic_id=${topic.id}&id=${responses.body.checkpoint.id}&seq=${responses.body.checkpoint.seq}&limit=1000`,
    );
    expect(responsesAfter.body.documents.find((doc) => doc.id === response.id)?.username).toBe('Ada Lovelace');
  });

  it('a profile pull after an upvote on the user’s topic returns the new points', async () => {
    const api = apiClient(server.url, () => ada.token);
    const topic = await makeTopic(api);
    const first = await api.get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=10');
    expect(first.status).toBe(200);
    const before = first.body.documents.at(-1)!.points;

    await upvote(apiClient(server.url, bob.token), 'topic', topic.id);

    const after = await api.get<PullResponse<ProfileDoc>>(
      `/sync/profile/pull?id=${first.body.checkpoint.id}&seq=${first.body.checkpoint.seq}&limit=10`,
    );
    expect(after.body.documents).toHaveLength(1);
    expect(after.body.documents[0]!.points).toBe(before + 1);
  });
});
