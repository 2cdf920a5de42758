import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('server smoke', () => {
  let server: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(() => server.stop());

  it('answers health and creates a topic with an emulator token', async () => {
    const anon = apiClient(server.url);
    expect((await anon.get('/health')).body).toEqual({ ok: true });
    const created = await apiClient(server.url, ada.token).post('/topics', {
      title: ' Is tea better than coffee? ',
      categories: ['Culture'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Is tea better than coffee?', username: 'Ada', creator_uid: ada.uid });
  });
});
