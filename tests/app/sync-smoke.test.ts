import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('client store smoke', () => {
  let server: TestServer;
  let ada: TestUser;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('pulls topics and pushes a new one', async () => {
    const existing = await makeTopic(apiClient(server.url, ada.token), { title: 'Server made' });
    client = await startClient(server.url, { user: ada });
    await until(client.data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === existing.id));
    const created = await client.data.createTopic({ title: 'Client made', category: 'Science' });
    expect(created.isPending).toBe(true);
    await until(client.data.topic$(created.id), (t) => !!t && !t.isPending && t.username === 'Ada');
    expect((await apiClient(server.url).get(`/topics/${created.id}`)).body.title).toBe('Client made');
  });
});
