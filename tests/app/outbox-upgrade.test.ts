// The user's own collections moved from RxDB's push onto the outbox (votes schema 1, profile schema
// 5...): a change the previous app stored but had not sent yet is neither lost nor sent blindly over
// the server's state. A taken-back vote is made on the other vote state (the only other one the
// server can hold) and lands; a preference is made on the stored document, so a server holding
// something else meets a conflict and the user's version waits in Sync problems.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase, type RxJsonSchema } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileSchema } from '../../app/src/data/collections/profile.schema.js';
import { voteSchema } from '../../app/src/data/collections/vote.schema.js';
import { userDbName } from '../../app/src/data/db.js';
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic, upvote } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

addRxPlugin(RxDBMigrationSchemaPlugin);

/** The schema as the previous app stored it: one version older, without `server_base`. */
function previous<T>(schema: RxJsonSchema<T>): RxJsonSchema<unknown> {
  const { server_base: _base, ...properties } = schema.properties as Record<string, unknown>;
  return { ...schema, version: schema.version - 1, properties } as unknown as RxJsonSchema<unknown>;
}

/** Strategies up to `version` that keep each document as it is (the old database only needs them declared). */
const kept = (version: number) => Object.fromEntries(Array.from({ length: version }, (_, i) => [i + 1, (doc: unknown) => doc]));

describe('unsent changes of the app before the outbox', () => {
  let server: TestServer;
  let ada: TestUser;
  let client: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('a taken-back vote lands; a preference the server holds otherwise waits in Sync problems', async () => {
    const api = apiClient(server.url, ada.token);
    const bob = await createTestUser('Bob');
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Voted on by the previous app' });
    await upvote(api, 'topic', topic.id);
    const pulled = async (collection: string) =>
      (await api.get(`/sync/${collection}/pull?limit=10`, { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } })).body as {
        documents: Record<string, unknown>[];
      };
    const serverVote = (await pulled('votes')).documents.find((doc) => doc.target_id === topic.id)!;
    const serverProfile = (await pulled('profile')).documents[0]!;
    expect(serverVote.upvoted).toBe(true);

    // The previous app's database: the vote taken back and the weekly summary turned off, unsent.
    const indexedDB = new IDBFactory();
    const prefix = `upgrade${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: userDbName(prefix, ada.uid),
      storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
      multiInstance: false,
    });
    await old.addCollections({
      votes: { schema: previous(voteSchema) as never, migrationStrategies: kept(voteSchema.version - 1) },
      profile: { schema: previous(profileSchema) as never, migrationStrategies: kept(profileSchema.version - 1) },
    });
    const { _deleted: _voteDeleted, ...vote } = serverVote;
    await old.votes!.insert({ ...vote, upvoted: false, confirmed_upvoted: true, pending: true });
    const { _deleted: _profileDeleted, ...profile } = serverProfile;
    await old.profile!.insert({ ...profile, receive_weekly_summary: !serverProfile.receive_weekly_summary, pending: true });
    await old.close();

    client = await startClient(server.url, { user: ada, indexedDB, prefix });
    const problems = await until(client.data.syncProblems$(), (list) => list.length === 1, 20_000);
    expect(problems[0]).toMatchObject({ kind: 'conflict', collection: 'profile', action: 'preferences' });
    await until(client.data.status$, (status) => status.pending === 0, 20_000);
    // The vote was taken back on the server, once; the server's preference was not overwritten.
    expect((await api.get(`/topics/${topic.id}`)).body).toMatchObject({ score: 0 });
    expect((await pulled('votes')).documents.find((doc) => doc.target_id === topic.id)).toMatchObject({ upvoted: false });
    expect((await pulled('profile')).documents[0]!.receive_weekly_summary).toBe(serverProfile.receive_weekly_summary);
  });
});
