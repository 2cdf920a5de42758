// A big topic arriving on a device: the server is asked for pages of PULL_BATCH responses, and the
// device stores them a part at a time (pull-chunks.ts), each part read and written on its own, never two
// pages merged into one batch. Against the real server, with a topic of 2,300 responses, the profile's
// storage watched as it is used.
import type { RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_BATCH, PULL_PART } from '../../app/src/data/replication.js';
import type { AnyStorage } from '../../app/src/data/api.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { storedRecords } from '../fixtures/indexeddb.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const RESPONSES = 2_300;

/** The storage as it is, noting the size of every read by id of the responses collection. */
function watchingReads(storage: AnyStorage, reads: number[]): AnyStorage {
  const watched: AnyStorage = Object.create(storage);
  watched.createStorageInstance = async <Doc>(params: RxStorageInstanceCreationParams<Doc, unknown>) => {
    const instance: RxStorageInstance<Doc, unknown, unknown> = await storage.createStorageInstance(params);
    if (params.collectionName !== 'responses') return instance;
    const find = instance.findDocumentsById.bind(instance);
    instance.findDocumentsById = (ids, withDeleted) => {
      reads.push(ids.length);
      return find(ids, withDeleted);
    };
    return instance;
  };
  return watched;
}

describe('a big topic arriving', () => {
  let server: TestServer;
  let bob: TestUser;
  let topicId: string;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    bob = await createTestUser('Bob');
    topicId = (await makeTopic(apiClient(server.url, bob.token), { title: 'A debate of thousands' })).id;
    const base = Date.parse('2026-02-01T00:00:00.000Z');
    await server.store.transaction(async () => {
      for (let i = 0; i < RESPONSES; i++) {
        await server.store.responses.insert({
          id: `big-${String(i).padStart(5, '0')}`,
          topic_id: topicId,
          parent_response_id: null,
          quoted_response_id: null,
          type: (['for', 'against', 'neutral'] as const)[i % 3]!,
          content: `Argument number ${i} of the big debate`,
          creator_uid: bob.uid,
          created_at: new Date(base + i * 1000).toISOString(),
          seq: await server.store.nextSeq(),
        });
      }
    });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await server.stop();
  });

  it('is asked for in pages of PULL_BATCH and stored a part at a time, every response on the device', async () => {
    const reads: number[] = [];
    const device = await startClient(server.url, { storage: (storage) => watchingReads(storage, reads) });
    clients.push(device);
    await device.data.openTopic(topicId);
    const responses = await until(device.data.topicResponses$(topicId), (list) => list.length === RESPONSES, 60_000);
    expect(new Set(responses.map((response) => response.id)).size).toBe(RESPONSES);

    const pulls = device.requests.filter((request) => request.path === '/api/sync/responses/pull');
    const limits = pulls.map((request) => (JSON.parse(request.body!) as { limit: number }).limit);
    expect(limits.every((limit) => limit === PULL_BATCH)).toBe(true);
    // 2,300 responses are three pages (and at most a last request that finds nothing new).
    expect(pulls.length).toBeGreaterThanOrEqual(Math.ceil(RESPONSES / PULL_BATCH));
    expect(pulls.length).toBeLessThanOrEqual(Math.ceil(RESPONSES / PULL_BATCH) + 1);
    // RxDB reads the stored state of each batch it stores: never more than a part (no page, no merged pages).
    expect(Math.max(...reads)).toBeLessThanOrEqual(PULL_PART);
    expect(reads.filter((size) => size === PULL_PART).length).toBeGreaterThanOrEqual(Math.floor(RESPONSES / PULL_PART) - 1);

    const stored = await storedRecords(device.indexedDB, /-public--\d+--responses$/);
    expect(stored.filter((record) => record.topic_id === topicId && record._deleted !== true)).toHaveLength(RESPONSES);
  }, 120_000);
});
