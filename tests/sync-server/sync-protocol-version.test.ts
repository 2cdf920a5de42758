// An installed app that speaks another sync protocol than the server is refused
// with 426 `sync-outdated` on every /api/sync endpoint, before anything is read or
// written; the current version and no header at all (a script) are served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { createApp } from '../../sync-server/src/app.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const refuseTokens = { verify: () => Promise.reject(new Error('no tokens in this test')) };
let testStore: TestStore;
let app: ReturnType<typeof createApp>['app'];
beforeAll(async () => {
  testStore = await openTestStore();
  ({ app } = createApp({ store: testStore.store, verifier: refuseTokens, log: () => {} }));
});
afterAll(() => testStore?.close());

const REQUESTS: [string, string, unknown?][] = [
  ['GET', '/api/sync/topics/pull?limit=10'],
  ['POST', '/api/sync/responses/pull', { checkpoint: { topics: {} }, limit: 10 }],
  ['POST', '/api/sync/topics/push', []],
  ['GET', '/api/sync/stream'],
];

function send(method: string, path: string, body: unknown, version?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version !== undefined) headers[SYNC_PROTOCOL_HEADER] = version;
  return app.request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

describe('sync protocol version', () => {
  it.each(REQUESTS)('%s %s from an outdated app: 426 sync-outdated', async (method, path, body) => {
    for (const version of ['0', String(SYNC_PROTOCOL_VERSION + 1), 'garbage', '']) {
      const res = await send(method, path, body, version);
      expect(res.status).toBe(426);
      expect(await res.json()).toEqual({ error: MSG.syncOutdated, code: 'sync-outdated' });
    }
  });

  it('the current version and a missing header are served', async () => {
    for (const version of [String(SYNC_PROTOCOL_VERSION), undefined]) {
      const pull = await send('GET', '/api/sync/topics/pull?limit=10', undefined, version);
      expect(pull.status).toBe(200);
      expect(await pull.json()).toEqual({ documents: [], checkpoint: { id: '', seq: 0 } });
      // A push without a token is refused for the token, not the version.
      const push = await send('POST', '/api/sync/topics/push', [], version);
      expect(push.status).toBe(401);
    }
  });

  it('the REST API does not look at the header', async () => {
    const res = await send('GET', '/api/topics', undefined, '0');
    expect(res.status).toBe(200);
  });
});
