// The metrics an in-process app feeds (docs/OPERATIONS.md "Metrics") that the
// process test (observability.test.ts, rate limits off) does not move: live streams open, and
// rate-limit refusals by the bucket that refused. Read from the process's registry, both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { metrics } from '../../sync-server/src/observe/metrics.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const noTokens: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens here')) };

const streamsOpen = async () => (await metrics.streamsOpen.get()).values[0]?.value ?? 0;
const refusals = async (bucket: string) => (await metrics.rateLimited.get()).values.find((v) => v.labels.bucket === bucket)?.value ?? 0;

describe('metrics fed by the app', () => {
  let testStore: TestStore;
  beforeAll(async () => {
    testStore = await openTestStore();
  });
  afterAll(() => testStore.close());

  it('counts the live streams open, and a refused one under its bucket', async () => {
    const { app } = createApp({
      store: testStore.store,
      verifier: noTokens,
      rateLimits: { ...DEFAULT_RATE_LIMITS, ipStreams: 1 },
    });
    const before = await streamsOpen();
    const refusedBefore = await refusals('ipStreams');
    const stream = await app.request('/api/sync/stream');
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read(); // its first event: the stream is serving
    expect(await streamsOpen()).toBe(before + 1);

    const second = await app.request('/api/sync/stream');
    expect(second.status).toBe(429);
    expect(await refusals('ipStreams')).toBe(refusedBefore + 1);

    await reader.cancel();
    const end = Date.now() + 5000;
    while ((await streamsOpen()) !== before && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await streamsOpen()).toBe(before);
  });

  it('counts a refused sync pull under the pulls bucket', async () => {
    const { app } = createApp({
      store: testStore.store,
      verifier: noTokens,
      rateLimits: { ...DEFAULT_RATE_LIMITS, userPulls: { burst: 1, perMinute: 1 } },
    });
    const before = await refusals('userPulls');
    expect((await app.request('/api/sync/topics/pull?limit=1')).status).toBe(200);
    expect((await app.request('/api/sync/topics/pull?limit=1')).status).toBe(429);
    expect(await refusals('userPulls')).toBe(before + 1);
  });
});
