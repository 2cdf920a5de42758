// The live stream: RESYNC at connection, heartbeats, and change events filtered
// per subscriber (followed topics; private collections only for their owner).
import { Hono } from 'hono';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../shared/sync-protocol.js';
import { createFirebaseVerifier } from '../../sync-server/src/auth/verifier.js';
import { authenticate, type AppEnv } from '../../sync-server/src/http/auth.js';
import { syncRoutes } from '../../sync-server/src/sync/routes.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

interface Reader {
  events: StreamEvent[];
  comments: string[];
  next(check: (e: StreamEvent) => boolean): Promise<StreamEvent>;
  close(): void;
}

async function openReader(res: Response, abort: AbortController): Promise<Reader> {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (message) => {
      events.push(JSON.parse(message.data) as StreamEvent);
      waiters.splice(0).forEach((wake) => wake());
    },
    onComment: (comment) => {
      comments.push(comment);
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  void (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    comments,
    async next(check) {
      for (;;) {
        const found = events.find(check);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}

describe('sync live stream', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const readers: Reader[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(async () => {
    readers.forEach((reader) => reader.close());
    await server.stop();
  });

  async function connect(token: string | null, topics: string[] = []) {
    const abort = new AbortController();
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const query = topics.length ? `?topics=${topics.join(',')}` : '';
    const res = await fetch(`${server.url}/api/sync/stream${query}`, { headers, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = await openReader(res, abort);
    readers.push(reader);
    return reader;
  }

  it('starts with RESYNC for everything and then reports each change to whom it concerns', async () => {
    const adaApi = apiClient(server.url, ada.token);
    const followed = await makeTopic(adaApi);
    const other = await makeTopic(adaApi);
    const adaStream = await connect(ada.token, [followed.id]);
    const anonStream = await connect(null, [other.id]);
    await adaStream.next((e) => e.collection === '*');
    await anonStream.next((e) => e.collection === '*');
    expect(adaStream.events[0]).toEqual({ type: 'RESYNC', collection: '*' });

    // Bob answers Ada's followed topic: Ada hears about the topic list, the topic's responses and her notifications.
    await makeResponse(apiClient(server.url, bob.token), { topic_id: followed.id });
    await adaStream.next((e) => e.collection === 'responses' && e.topic_id === followed.id);
    await adaStream.next((e) => e.collection === 'notifications');
    await adaStream.next((e) => e.collection === 'topics');
    // The anonymous reader follows another topic: topics yes, those responses and Ada's notifications no.
    await anonStream.next((e) => e.collection === 'topics');
    await makeResponse(adaApi, { topic_id: other.id });
    await anonStream.next((e) => e.collection === 'responses' && e.topic_id === other.id);
    expect(anonStream.events.some((e) => e.topic_id === followed.id)).toBe(false);
    expect(anonStream.events.some((e) => e.collection === 'notifications' || e.collection === 'votes')).toBe(false);
  });

  it('sends heartbeat comment lines and refuses a bad topics list', async () => {
    const ctx = server.ctx;
    const app = new Hono<AppEnv>()
      .use(authenticate(createFirebaseVerifier(PROJECT_ID), ctx))
      .route('/api/sync', syncRoutes(ctx, { heartbeatMs: 20 }));
    const abort = new AbortController();
    const res = await app.request('/api/sync/stream', { signal: abort.signal });
    const reader = await openReader(res, abort);
    readers.push(reader);
    await reader.next((e) => e.collection === '*');
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => reader.comments.length >= 2 && (clearInterval(timer), resolve()), 5);
    });
    expect(reader.comments[0]?.trim()).toBe('ping');
    expect((await fetch(`${server.url}/api/sync/stream?topics=a,b%20c`)).status).toBe(400);
  });
});
