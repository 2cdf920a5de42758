// A deleted account seen from someone else's device that was offline meanwhile: at its next sync the
// account's responses and topics are rewritten (content "delete": no word of theirs is left, in RxDB
// nor in the raw IndexedDB rows; "anonymise": the words stay, under "deleted user").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, uniqueId } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** Every record of every object store of every database the device holds, as one string. */
async function rawIndexedDb(factory: IDBFactory): Promise<string> {
  const dumps: string[] = [];
  for (const { name } of await factory.databases()) {
    if (!name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'));
    });
    for (const store of Array.from(db.objectStoreNames)) {
      const records = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store, 'readonly').objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'));
      });
      dumps.push(JSON.stringify(records));
    }
    db.close();
  }
  return dumps.join('\n');
}

describe("a deleted account on another person's offline device", () => {
  let server: TestServer;
  let bob: TestUser;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    bob = await createTestUser('Bob Reader');
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('"delete": after the next sync, no text of the account is left on the device', async () => {
    const ann = await createTestUser('Ann Leaving');
    const secret = `secret-${uniqueId()}`;
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Bob asks' });
    const annTopic = await makeTopic(apiClient(server.url, ann.token), { title: `Ann asks ${secret}` });
    const annResponse = await makeResponse(apiClient(server.url, ann.token), { topic_id: topic.id, content: `Ann says ${secret}` });
    const bobQuote = await makeResponse(apiClient(server.url, bob.token), {
      topic_id: topic.id,
      content: 'Bob quotes Ann',
      quoted_response_id: annResponse.id,
    });
    client = await startClient(server.url, { user: bob });
    await client.data.openTopic(topic.id);
    await until(client.data.topicResponses$(topic.id), (list) => list.some((r) => r.id === annResponse.id));
    await until(client.data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === annTopic.id));
    expect(await rawIndexedDb(client.indexedDB)).toContain(secret);

    client.goOffline();
    expect((await apiClient(server.url, ann.token).del('/me', { content: 'delete' })).status).toBe(204);
    client.goOnline();

    const list = await until(client.data.topicResponses$(topic.id), (responses) =>
      responses.some((r) => r.id === annResponse.id && r.content === MSG.deletedWithAccount),
    );
    // Bob's quote keeps its place; what it quotes has no words of Ann's any more.
    expect(list.find((r) => r.id === bobQuote.id)?.content).toBe('Bob quotes Ann');
    await until(client.data.topics$({ sort: 'new' }), (topics) =>
      topics.some((t) => t.id === annTopic.id && t.title === MSG.deletedWithAccount),
    );
    await until(client.data.status$, (s) => !s.syncing);
    expect(await rawIndexedDb(client.indexedDB)).not.toContain(secret);
  });

  it('"anonymise": the words stay, under "deleted user"', async () => {
    const cy = await createTestUser(`Cy ${uniqueId()}`);
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Bob asks again' });
    const cyResponse = await makeResponse(apiClient(server.url, cy.token), { topic_id: topic.id, content: 'Cy stays in words' });
    client ??= await startClient(server.url, { user: bob });
    await client.data.openTopic(topic.id);
    await until(client.data.topicResponses$(topic.id), (list) => list.some((r) => r.id === cyResponse.id && r.username === cy.name));

    client.goOffline();
    expect((await apiClient(server.url, cy.token).del('/me', { content: 'anonymise' })).status).toBe(204);
    client.goOnline();

    await until(client.data.topicResponses$(topic.id), (list) =>
      list.some((r) => r.id === cyResponse.id && r.content === 'Cy stays in words' && r.username === MSG.deletedUser),
    );
    await until(client.data.status$, (s) => !s.syncing);
    // Cy's name left with the account: the notification of Cy's reply to Bob names "deleted user" too.
    await until(client.data.notifications$(), (list) => list.some((n) => n.actor_display_name === MSG.deletedUser));
    expect(await rawIndexedDb(client.indexedDB)).not.toContain(cy.name!);
  });
});
