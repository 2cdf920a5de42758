// RxDB's open-source build refuses to open a collection once 13 are open on a page, counted over
// every database (COL23), and the app would stop opening. The whole data layer, signed in and
// used as a screen uses it (a topic opened, a reply, a vote, a stance, a draft, the sync problems read), stays at
// MAX_OPEN_COLLECTIONS, leaving the rest for growth. Data that never leaves the device lives in
// local documents, which are no collections (drafts.ts, problems.ts).
import { OPEN_COLLECTIONS } from 'rxdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../app/src/data/collections/index.js';
import { userDbName } from '../../app/src/data/db.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** The most RxDB collections the app may hold open at once (RxDB's own limit is 13). */
const MAX_OPEN_COLLECTIONS = 8;

describe('RxDB collections open at once', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let device: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(async () => {
    await device?.close();
    await server.stop();
  });

  it(`are at most ${MAX_OPEN_COLLECTIONS}, each declared in the registry, with a user signed in and at work`, async () => {
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Should libraries lend tools?' });
    device = await startClient(server.url, { user: ada });
    await device.data.openTopic(topic.id);
    await until(device.data.topic$(topic.id), (t) => !!t);
    await device.data.createResponse({ topicId: topic.id, type: 'for', content: 'Most tools sit unused in sheds.' });
    await device.data.toggleVote('topic', topic.id);
    await device.data.setStance(topic.id, 'agree');
    await device.data.saveDraft(`topic:${topic.id}`, 'A second thought');
    await until(device.data.syncProblems$(), (list) => list.length === 0);
    await until(device.data.status$, (s) => s.online && s.pending === 0);

    const open = [...OPEN_COLLECTIONS].map((collection) => `${collection.database.name}/${collection.name}`).sort();
    expect(open.length, open.join(', ')).toBeLessThanOrEqual(MAX_OPEN_COLLECTIONS);
    // Only what the registry declares, each once, in the database it names.
    const databases = { public: `${device.prefix}-public`, user: userDbName(device.prefix, ada.uid) };
    const declared = Object.entries(COLLECTIONS).map(([name, entry]) => `${databases[entry.database]}/${name}`);
    expect(open).toEqual(declared.sort());
  });
});
