// GET /api/ready (docs/OPERATIONS.md "Shutdown and readiness"): 200 only while serving,
// 503 while starting, migrating or draining, /api/health 200 throughout; and a drain's endStreams()
// ends the live streams (the app's stream client reconnects). The process side (SIGTERM, the exit)
// is graceful-shutdown.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { createReadiness, readyAnswer } from '../../sync-server/src/http/readiness.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const noTokens: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens here')) };

describe('readiness', () => {
  let testStore: TestStore;
  beforeAll(async () => {
    testStore = await openTestStore();
  });
  afterAll(() => testStore.close());

  it('answers 200 only while serving', () => {
    expect(readyAnswer('serving')).toEqual({ status: 200, body: { ready: true, state: 'serving' } });
    for (const state of ['starting', 'migrating', 'draining'] as const)
      expect(readyAnswer(state)).toEqual({ status: 503, body: { ready: false, state } });
  });

  it('GET /api/ready follows the state; /api/health stays 200', async () => {
    const readiness = createReadiness('starting');
    const { app } = createApp({ store: testStore.store, verifier: noTokens, readiness });
    for (const state of ['starting', 'migrating', 'serving', 'draining'] as const) {
      readiness.set(state);
      const res = await app.request('/api/ready');
      expect(res.status).toBe(state === 'serving' ? 200 : 503);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ ready: state === 'serving', state });
      expect((await app.request('/api/health')).status).toBe(200);
    }
  });

  it('endStreams() ends the live streams', async () => {
    const readiness = createReadiness();
    const { app } = createApp({ store: testStore.store, verifier: noTokens, readiness });
    const res = await app.request('/api/sync/stream');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('RESYNC');
    readiness.endStreams();
    for (;;) if ((await reader.read()).done) break;
    // A stream opened while draining ends at once.
    const late = await app.request('/api/sync/stream');
    const lateReader = late.body!.getReader();
    let done = false;
    while (!done) done = (await lateReader.read()).done;
    expect(done).toBe(true);
  });
});
