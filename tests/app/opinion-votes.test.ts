// Disagree and pass through the real data layer and server: written here offline, shown at once, sent
// exactly once through the outbox on reconnect; and an upvote stored by the app before the vote had a
// value (votes schema 1) migrates to an agree, its unsent take-back still landing once.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase, type RxJsonSchema } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voteSchema } from '../../app/src/data/collections/vote.schema.js';
import { userDbName } from '../../app/src/data/db.js';
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

addRxPlugin(RxDBMigrationSchemaPlugin);

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };

describe('disagree and pass on the device', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let client: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('a disagree and a pass made offline show at once and reach the server exactly once', async () => {
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Votes on a train' });
    const first = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'First' });
    const second = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'Second' });
    client = await startClient(server.url, { user: ada });
    const a = client;
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 2);
    await upvote(apiClient(server.url, ada.token), 'response', second.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.some((r) => r.id === second.id && r.user_vote === 1 && r.score === 1));

    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    const before = a.requests.length;
    await a.data.castVote('response', first.id, -1);
    await a.data.castVote('response', second.id, 0); // the agree becomes a pass: its point goes
    // Changed and changed back offline: only the last state goes out.
    await a.data.castVote('response', first.id, 0);
    await a.data.castVote('response', first.id, -1);
    const local = await until(
      a.data.topicResponses$(topic.id),
      (list) => list.some((r) => r.id === first.id && r.user_vote === -1) && list.some((r) => r.id === second.id && r.user_vote === 0),
    );
    expect(local.find((r) => r.id === first.id)).toMatchObject({ user_has_downvoted: true, user_has_upvoted: false, score: 0 });
    expect(local.find((r) => r.id === second.id)).toMatchObject({ user_has_downvoted: false, user_has_upvoted: false, score: 0 });
    await expect(a.data.castVote('topic', topic.id, -1)).rejects.toThrow(/Only a response/);
    expect(a.requests.length).toBe(before);

    const published: unknown[] = [];
    const unsubscribe = server.ctx.changes.subscribe((changes) => published.push(changes));
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    unsubscribe();
    const pushes = a.requests.slice(before).filter((r) => r.path.startsWith('/api/sync/votes/push'));
    const sentRows = pushes.flatMap((r) => JSON.parse(r.body!) as { newDocumentState: { id: string; value: number } }[]);
    expect(sentRows.map((row) => [row.newDocumentState.id, row.newDocumentState.value]).sort()).toEqual([
      [`response_${first.id}`, -1],
      [`response_${second.id}`, 0],
    ]);
    // One committed vote each.
    expect(published).toHaveLength(2);
    const api = apiClient(server.url, ada.token);
    expect((await api.get(`/responses/${first.id}`)).body).toMatchObject({ user_has_downvoted: true, score: 0 });
    expect((await api.get(`/responses/${second.id}`)).body).toMatchObject({ user_has_upvoted: false, user_has_downvoted: false, score: 0 });
    expect(await countRows(server.db, 'votes', 'voter_uid = ? AND deleted = 0', ada.uid)).toBe(2);
    // The device still shows the server's state once it has echoed it.
    const after = await until(a.data.topicResponses$(topic.id), (list) => list.every((r) => !r.isPending));
    expect(after.find((r) => r.id === first.id)).toMatchObject({ user_vote: -1, score: 0 });
    expect(after.find((r) => r.id === second.id)).toMatchObject({ user_vote: 0, score: 0 });
    await a.close();
    client = undefined;
  });

  it('an upvote stored before the vote had a value (schema 1) becomes an agree; its unsent take-back lands once', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Voted on by the previous app' });
    const kept = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'Kept' });
    const taken = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'Taken back' });
    await upvote(api, 'response', kept.id);
    await upvote(api, 'response', taken.id);
    const pulled = (await api.get<{ documents: Record<string, unknown>[] }>('/sync/votes/pull?limit=100', SYNC)).body.documents;
    const asStoredBefore = (id: string) => {
      const { _deleted, value: _value, ...doc } = pulled.find((d) => d.target_id === id)!;
      return doc;
    };

    // The previous app's database: votes schema 1 (no value), one vote confirmed, one taken back unsent.
    const { value: _valueField, ...properties } = voteSchema.properties as Record<string, unknown>;
    const schemaV1 = { ...voteSchema, version: 1, properties } as unknown as RxJsonSchema<unknown>;
    const indexedDB = new IDBFactory();
    const prefix = `votes${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: userDbName(prefix, ada.uid),
      storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
      multiInstance: false,
    });
    await old.addCollections({ votes: { schema: schemaV1 as never, migrationStrategies: { 1: (doc: unknown) => doc } } });
    await old.votes!.insert({ ...asStoredBefore(kept.id), confirmed_upvoted: true, pending: false });
    const base = { ...asStoredBefore(taken.id), _deleted: false };
    await old.votes!.insert({ ...asStoredBefore(taken.id), upvoted: false, confirmed_upvoted: true, pending: true, server_base: base });
    await old.close();

    client = await startClient(server.url, { user: ada, indexedDB, prefix });
    await client.data.openTopic(topic.id);
    await until(client.data.status$, (s) => s.online && s.pending === 0, 20_000);
    const views = await until(client.data.topicResponses$(topic.id), (list) => list.length === 2 && list.every((r) => !r.isPending));
    expect(views.find((r) => r.id === kept.id)).toMatchObject({ user_vote: 1, user_has_upvoted: true, score: 1 });
    expect(views.find((r) => r.id === taken.id)).toMatchObject({ user_vote: null, user_has_upvoted: false, score: 0 });
    expect((await api.get(`/responses/${taken.id}`)).body).toMatchObject({ score: 0, user_has_upvoted: false });
    expect((await api.get(`/responses/${kept.id}`)).body).toMatchObject({ score: 1, user_has_upvoted: true });
    expect(await until(client.data.syncProblems$(), () => true)).toEqual([]);
  });
});
