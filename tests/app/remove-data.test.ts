// "Remove my data from this device" (signOut with removeData): nothing of the user is left in the
// browser's IndexedDB, not even empty databases named after their uid. RxDB's Dexie storage keeps
// one IndexedDB database per collection (and per internal store), and removing the RxDB database
// only emptied them: about 18 databases named after the uid stayed in the profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userDbName } from '../../app/src/data/db.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startClient, until } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('signOut({ removeData: true })', () => {
  let server: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(() => server.stop());

  it("deletes the user's IndexedDB databases, not only their rows", async () => {
    const topic = await makeTopic(apiClient(server.url, ada.token), { title: 'Should cities ban cars downtown?' });
    const device = await startClient(server.url, { user: ada });
    await until(device.data.topic$(topic.id), (t) => !!t);
    await device.data.setStance(topic.id, 'agree');
    await device.data.saveDraft('topic:new', 'A title in progress');
    await until(device.data.status$, (s) => s.pending === 0);
    const userDb = userDbName(device.prefix, ada.uid);
    const names = async () => (await device.indexedDB.databases()).map((d) => d.name ?? '');
    expect((await names()).filter((name) => name.includes(userDb)).length).toBeGreaterThan(0);

    await device.data.signOut({ removeData: true });

    expect((await names()).filter((name) => name.includes(userDb))).toEqual([]);
    await device.close();
  });
});
