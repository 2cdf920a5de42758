// Conflicts and rejected writes: the server's state wins, the user's version is
// kept in `sync problems` (fix or discard), never dropped silently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('sync problems', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let a: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    a = await startClient(server.url, { user: ada });
  });
  afterAll(async () => {
    await a?.close();
    await server.stop();
  });

  it('a conflicting edit resolves to the server state and keeps the user text recoverable', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api);
    const response = await makeResponse(api, { topic_id: topic.id, content: 'first version' });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 1);

    a.goOffline();
    await a.data.editResponse(response.id, { content: 'my offline wording' });
    // Meanwhile the same user edits it on another device.
    expect((await api.put(`/responses/${response.id}`, { content: 'wording from my phone' })).status).toBe(200);
    a.goOnline();

    const [local] = await until(
      a.data.topicResponses$(topic.id),
      (list) => list[0]?.content === 'wording from my phone' && !list[0].isPending,
    );
    expect(local!.content).toBe('wording from my phone');
    const [problem] = await until(a.data.syncProblems$(), (list) => list.length === 1);
    expect(problem).toMatchObject({
      kind: 'conflict',
      collection: 'responses',
      itemId: response.id,
      action: 'edit',
      localState: expect.objectContaining({ content: 'my offline wording' }),
      serverState: expect.objectContaining({ content: 'wording from my phone' }),
    });
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('wording from my phone');

    // A retry never overwrites blind; "Keep mine" re-sends the wording on top of the server's.
    await expect(a.data.fixProblem(problem!.id)).rejects.toMatchObject({ code: 'invalid-argument' });
    await a.data.resolveConflict(problem!.id, { keep: 'mine' });
    await until(a.data.syncProblems$(), (list) => list.length === 0);
    await until(a.data.status$, (s) => s.pending === 0);
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('my offline wording');
  });

  it("an edit made on the text the editor showed is a conflict when a pull brought another device's text before the save", async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api);
    const response = await makeResponse(api, { topic_id: topic.id, content: 'text in the editor' });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list[0]?.content === 'text in the editor');
    const editedFrom = { content: 'text in the editor', quotedResponseId: null, sources: [] };

    // The editor is open on that text when the phone's edit arrives here (live stream, then a pull).
    expect((await api.put(`/responses/${response.id}`, { content: 'text from the phone' })).status).toBe(200);
    await until(a.data.topicResponses$(topic.id), (list) => list[0]?.content === 'text from the phone' && !list[0].isPending);

    // Saved unchanged: nothing of the person's to write, the newer text stays.
    await a.data.editResponse(response.id, { content: 'text in the editor', editedFrom });
    expect((await firstValueFrom(a.data.topicResponses$(topic.id)))[0]).toMatchObject({ content: 'text from the phone', isPending: false });

    // Saved changed: the person never saw the phone's text, so it is not written over blind.
    await a.data.editResponse(response.id, { content: 'text from the laptop', editedFrom });
    const problems = await until(a.data.syncProblems$(), (list) => list.some((p) => p.itemId === response.id));
    const problem = problems.find((p) => p.itemId === response.id);
    expect(problem).toMatchObject({
      kind: 'conflict',
      action: 'edit',
      localState: expect.objectContaining({ content: 'text from the laptop' }),
      serverState: expect.objectContaining({ content: 'text from the phone' }),
    });
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('text from the phone');
    await a.data.resolveConflict(problem!.id, { keep: 'theirs' });
    await until(a.data.syncProblems$(), (list) => list.every((p) => p.itemId !== response.id));
  });

  it('a rejected write shows up in sync problems and can be discarded', async () => {
    const bobApi = apiClient(server.url, bob.token);
    const topic = await makeTopic(bobApi);
    const bobs = await makeResponse(bobApi, { topic_id: topic.id, content: 'Bob says' });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 1);

    a.goOffline();
    const reply = await a.data.createResponse({ topicId: topic.id, parentResponseId: bobs.id, type: 'against', content: 'Ada objects' });
    expect((await bobApi.del(`/responses/${bobs.id}`)).status).toBe(204);
    a.goOnline();

    const [problem] = await until(a.data.syncProblems$(), (list) => list.some((p) => p.itemId === reply.id));
    expect(problem).toMatchObject({
      kind: 'rejected',
      collection: 'responses',
      action: 'create',
      status: 404,
      error: 'Response not found.',
      localState: expect.objectContaining({ content: 'Ada objects', parent_response_id: bobs.id }),
    });
    // The local state follows the server: neither Bob's deleted response nor the refused reply remain.
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 0);
    await until(a.data.status$, (s) => s.pending === 0);
    expect((await apiClient(server.url).get(`/responses/${reply.id}`)).status).toBe(404);

    await a.data.discardProblem(problem!.id);
    await until(a.data.syncProblems$(), (list) => list.length === 0);
  });

  it('refuses at once, with the SPEC text, what the server would refuse anyway', async () => {
    const topic = await makeTopic(apiClient(server.url, bob.token));
    await until(a.data.topic$(topic.id), (t) => !!t);
    await expect(a.data.deleteTopic(topic.id)).rejects.toMatchObject({
      message: 'Only the creator can delete this topic.',
      code: 'permission-denied',
    });
    await expect(a.data.createTopic({ title: '   ', category: 'Science' })).rejects.toMatchObject({
      message: 'Topic title cannot be empty.',
    });
    const anon = await startClient(server.url);
    try {
      await expect(anon.data.toggleVote('topic', topic.id)).rejects.toMatchObject({ message: 'You must be logged in to vote.' });
    } finally {
      await anon.close();
    }
  });

  it("never sends one user's unsent writes with the next user's token; the author finds them at sign-in", async () => {
    // The same device (client `a`, signed in as Ada), handed to Bob.
    const client = a;
    {
      await until(client.data.status$, (s) => s.online && s.lastSyncedAt !== null);
      client.goOffline();
      const topic = await client.data.createTopic({ title: 'Left behind on a shared phone', category: 'Other' });
      await client.data.signOut();
      await client.data.signIn({ uid: bob.uid, getToken: async (force) => (force ? bob.refresh() : bob.token) });
      client.goOnline();
      await until(client.data.status$, (s) => s.online && s.pending === 0);
      await until(client.data.topic$(topic.id), (t) => t === null);
      expect((await apiClient(server.url).get(`/topics/${topic.id}`)).status).toBe(404);
      expect(await until(client.data.syncProblems$(), () => true)).toEqual([]);

      await client.data.signOut();
      await client.data.signIn({ uid: ada.uid, getToken: async (force) => (force ? ada.refresh() : ada.token) });
      const [problem] = await until(client.data.syncProblems$(), (list) => list.length === 1);
      expect(problem).toMatchObject({
        kind: 'rejected',
        collection: 'topics',
        action: 'create',
        localState: expect.objectContaining({ title: 'Left behind on a shared phone' }),
      });
      await client.data.fixProblem(problem!.id);
      const mine = await until(client.data.topics$({ sort: 'new' }), (list) =>
        list.some((t) => t.title === 'Left behind on a shared phone' && !t.isPending),
      );
      expect(mine.find((t) => t.title === 'Left behind on a shared phone')!.username).toBe('Ada');
    }
  });
});
