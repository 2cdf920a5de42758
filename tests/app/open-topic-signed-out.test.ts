// A visitor who is not signed in opens a topic this device never held (a link, a fresh phone): the
// topic is asked of the server, and its responses come onto the device, so it reads offline after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('a signed-out visitor opens a topic the device never held', () => {
  let server: TestServer;
  let ada: TestUser;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada Opener');
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await server?.stop();
  });

  it('keeps the topic and pulls its responses, which then read offline', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: 'Opened from a link' });
    const root = await makeResponse(api, { topic_id: topic.id, content: 'A root point' });
    await makeResponse(api, { topic_id: topic.id, content: 'A nested point', parent_response_id: root.id });
    const c = await startClient(server.url);
    clients.push(c);
    await c.data.openTopic(topic.id);
    const responses = await until(c.data.topicResponses$(topic.id), (list) => list.length === 2);
    expect(responses.map((r) => r.content).sort()).toEqual(['A nested point', 'A root point']);
    c.goOffline();
    expect((await until(c.data.topic$(topic.id), (t) => !!t))!.title).toBe('Opened from a link');
    expect(await until(c.data.topicResponses$(topic.id), (list) => list.length === 2)).toHaveLength(2);
  });
});
