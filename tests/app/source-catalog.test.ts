// The composer's source search asks the server's catalogue (GET /api/sources?q=)
// while online, and answers [] offline, below 3 characters or on any failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSourceCatalog } from '../../app/src/data/catalog.js';
import { createConnectivity } from '../../app/src/data/connectivity.js';
import { createHttp } from '../../app/src/data/http.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** The catalogue over the app's one HTTP client, asking `baseUrl` with `fetchImpl`, online or not. */
const createCatalog = (baseUrl: string, fetchImpl: typeof fetch, isOnline: () => boolean) =>
  createSourceCatalog(createHttp(baseUrl, fetchImpl, createConnectivity(undefined, isOnline)));

describe('source catalogue search', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const api = apiClient(server.url, (await createTestUser('Cato')).token);
    const topic = await makeTopic(api);
    await makeResponse(api, {
      topic_id: topic.id,
      sources: [{ url: 'https://example.org/tallinn-transit', name: 'Tallinn transit study', description: 'Fare-free results' }],
    });
  });
  afterAll(() => server.stop());

  it('finds a source cited in any topic by name, URL or description', async () => {
    const catalog = createCatalog(server.url, fetch, () => true);
    for (const text of ['tallinn', 'example.org', 'fare-free']) {
      expect((await catalog.searchSources(text)).map((s) => s.url)).toEqual(['https://example.org/tallinn-transit']);
    }
  });

  it('answers nothing below three characters, offline, or when the server is unreachable', async () => {
    let asked = 0;
    const counting: typeof fetch = (input, init) => {
      asked += 1;
      return fetch(input, init);
    };
    expect(await createCatalog(server.url, counting, () => true).searchSources('ta')).toEqual([]);
    expect(await createCatalog(server.url, counting, () => false).searchSources('tallinn')).toEqual([]);
    expect(asked).toBe(0);
    expect(await createCatalog('http://127.0.0.1:9', fetch, () => true).searchSources('tallinn')).toEqual([]);
  });
});
