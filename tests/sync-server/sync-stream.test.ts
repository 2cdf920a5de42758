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
import { connect as connectTcp, type Socket } from 'node:net';

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

  it('releases a stream whose client went away at once, not at the next heartbeat', async () => {
    // The real app (its compression and headers in front of the stream), its change feed counted.
    const feed = server.ctx.changes;
    const original = feed.subscribe.bind(feed);
    let subscribed = 0;
    feed.subscribe = (listener) => {
      subscribed++;
      const unsubscribe = original(listener);
      return () => {
        subscribed--;
        return unsubscribe();
      };
    };
    const waitFor = async (check: () => boolean, ms: number) => {
      const until = Date.now() + ms;
      while (!check()) {
        if (Date.now() > until) return false;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return true;
    };
    try {
      const before = subscribed;
      const open: Reader[] = [];
      for (let i = 0; i < 4; i++) open.push(await connect(ada.token));
      await Promise.all(open.map((reader) => reader.next((e) => e.collection === '*')));
      expect(subscribed).toBe(before + 4);
      open.forEach((reader) => reader.close());
      expect(await waitFor(() => subscribed === before, 3000), `subscriptions left: ${subscribed - before}`).toBe(true);

      // A client that only half-closes (its FIN, no reset: a proxy or a laptop going away politely)
      // is gone too: the server must not hold its socket and subscription until a write fails.
      const { port } = new URL(server.url);
      const sockets = await Promise.all(
        [1, 2, 3].map(
          () =>
            new Promise<Socket>((resolve, reject) => {
              const socket = connectTcp(Number(port), '127.0.0.1', () =>
                socket.write(`GET /api/sync/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ada.token}\r\n\r\n`),
              );
              let text = '';
              socket.on('data', (chunk: Buffer) => {
                text += chunk.toString();
                if (text.includes('RESYNC')) resolve(socket);
              });
              socket.on('error', reject);
            }),
        ),
      );
      expect(subscribed).toBe(before + 3);
      const closed = sockets.map((socket) => new Promise<void>((resolve) => socket.on('close', () => resolve())));
      sockets.forEach((socket) => socket.end());
      expect(await waitFor(() => subscribed === before, 3000), `half-closed subscriptions left: ${subscribed - before}`).toBe(true);
      // And the server closed its side of each connection.
      await Promise.race([Promise.all(closed), new Promise((_, reject) => setTimeout(() => reject(new Error('sockets kept open')), 3000))]);
    } finally {
      feed.subscribe = original;
    }
  });
});
