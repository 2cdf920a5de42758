// The edit history on the device, against the real server: a response's earlier versions come with
// its pulled document, stay readable offline, go into the author's export, and leave the device
// when a moderator removes the response (a restore brings them back at the next pull).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EDIT_GRACE_MS } from '../../shared/rules/edit-history.js';
import type { Response } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('edit history on the device', () => {
  let server: TestServer;
  let now = new Date('2026-07-01T00:00:00.000Z');
  let ada: TestUser;
  let mod: TestUser;
  const clients: TestClient[] = [];
  const api = (user: TestUser) => apiClient(server.url, () => user.token);
  const later = () => {
    now = new Date(now.getTime() + EDIT_GRACE_MS + 60_000);
    return now.toISOString();
  };

  beforeAll(async () => {
    // The server's clock moves past the grace period between edits; the client's is its own.
    server = await startTestServer({ clock: () => now });
    [ada, mod] = await Promise.all([createTestUser('Ada'), createTestUser('Mod')]);
    await setTestUserRole(mod, 'moderator');
    expect((await api(mod).get('/users/preferences')).status).toBe(200);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(() => server.stop());

  it('pulls the versions with the response, reads them offline and exports them', async () => {
    const topic = await makeTopic(api(ada), { title: 'Is tea better than coffee?' });
    const response = await makeResponse(api(ada), { topic_id: topic.id, content: 'Tea, obviously.' });
    later();
    const edited = await api(ada).put<Response>(`/responses/${response.id}`, { content: 'Tea, mostly.' });
    expect(edited.status, edited.text).toBe(200);
    const expected = [{ version: 1, content: 'Tea, obviously.', created_at: response.created_at }];

    const a = await startClient(server.url, { user: ada });
    clients.push(a);
    await a.data.openTopic(topic.id);
    const pulled = await until(a.data.topicResponses$(topic.id), (list) => list[0]?.versions.length === 1);
    expect(pulled[0]).toMatchObject({ content: 'Tea, mostly.', versions: expected });

    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    const requests = a.requests.length;
    const roots = await until(a.data.rootResponses$(topic.id), (list) => list.length === 1);
    expect(roots[0]!.versions).toEqual(expected);
    const exported = await a.data.exportMyData();
    expect(exported.responses).toEqual([expect.objectContaining({ id: response.id, content: 'Tea, mostly.', versions: expected })]);
    expect(a.requests.length).toBe(requests);

    // An edit made here (offline) writes no version: the server decides which edits keep one.
    later();
    await a.data.editResponse(response.id, { content: 'Tea, on the whole.' });
    const local = await until(a.data.topicResponses$(topic.id), (list) => list[0]?.content === 'Tea, on the whole.');
    expect(local[0]!.versions).toEqual(expected);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    const synced = await until(a.data.topicResponses$(topic.id), (list) => list[0]?.versions.length === 2, 15_000);
    expect(synced[0]!.versions.map((v) => v.content)).toEqual(['Tea, obviously.', 'Tea, mostly.']);
  });

  it("a moderator's removal takes the versions off the device, a restore brings them back", async () => {
    const topic = await makeTopic(api(ada), { title: 'Are cats better than dogs?' });
    const response = await makeResponse(api(ada), { topic_id: topic.id, content: 'Cats, plainly.' });
    later();
    expect((await api(ada).put(`/responses/${response.id}`, { content: 'Cats, on balance.' })).status).toBe(200);

    const reader = await startClient(server.url);
    clients.push(reader);
    await reader.data.openTopic(topic.id);
    await until(reader.data.topicResponses$(topic.id), (list) => list[0]?.versions.length === 1);

    const act = (action: 'remove' | 'restore') =>
      api(mod).post('/moderation/actions', { action, target_type: 'response', target_id: response.id, reason: 'Rule 1' });
    expect((await act('remove')).status).toBe(200);
    const removed = await until(reader.data.topicResponses$(topic.id), (list) => list[0]?.moderation === 'removed', 15_000);
    expect(removed[0]!.versions).toEqual([]);
    expect(JSON.stringify(removed)).not.toContain('Cats, plainly.');

    expect((await act('restore')).status).toBe(200);
    const restored = await until(reader.data.topicResponses$(topic.id), (list) => list[0]?.moderation === null, 15_000);
    expect(restored[0]!.versions).toEqual([{ version: 1, content: 'Cats, plainly.', created_at: response.created_at }]);
  });
});
