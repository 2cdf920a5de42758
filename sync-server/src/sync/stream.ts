// The live stream (docs/SYNC.md): one Server-Sent Events response per browser,
// read through fetch with the bearer header. It says RESYNC for everything at
// each (re)connection, then RESYNC for a collection (or a followed topic) when
// the change feed reports a commit the caller may see. Sending no documents
// avoids RxDB's stream/push race: the client pulls from its checkpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { StreamEvent, SyncCollection } from '../../../shared/sync-protocol.js';
import type { AuthUser } from '../auth/verifier.js';
import type { Change } from '../domain/change-feed.js';
import type { DomainContext } from '../domain/context.js';
import { descriptorOf, type Listener } from './collections/index.js';
import { metrics } from '../observe/metrics.js';

export interface StreamOptions {
  heartbeatMs: number;
  /** Called once when the stream ends (the caller's open-stream count is released). */
  onClose?: () => void;
  /** Aborted when the server drains (SIGTERM): the stream ends, and the app's stream client reconnects. */
  shutdown?: AbortSignal;
}

/** The events one listener should get for a batch of committed changes (deduplicated). */
export function eventsFor(changes: Change[], listener: Listener): StreamEvent[] {
  const seen = new Set<string>();
  const events: StreamEvent[] = [];
  for (const change of changes) {
    const event = eventFor(change, listener);
    const key = event && `${event.collection}:${event.topic_id ?? ''}`;
    if (!event || !key || seen.has(key)) continue;
    seen.add(key);
    events.push(event);
  }
  return events;
}

function eventFor<C extends SyncCollection>(change: Change & { collection: C | '*' }, listener: Listener): StreamEvent | null {
  if (change.collection === '*') return { type: 'RESYNC', collection: '*' };
  return descriptorOf<C>(change.collection).streamEvent(change as Change & { collection: C }, listener);
}

export function openStream(c: Context, ctx: DomainContext, user: AuthUser | null, topics: ReadonlySet<string>, options: StreamOptions) {
  c.header('X-Accel-Buffering', 'no'); // a proxy must not hold events back
  return streamSSE(c, async (stream) => {
    metrics.streamsOpen.inc();
    try {
      await serve(stream);
    } finally {
      metrics.streamsOpen.dec();
      options.onClose?.();
    }
  });

  async function serve(stream: SSEStreamingApi) {
    // Node's request and response under the app (absent when the app is called in-process, e.g. app.request).
    const { incoming, outgoing } = (c.env ?? {}) as { incoming?: IncomingMessage; outgoing?: ServerResponse };
    // Writes are chained so events keep their order even though each write is async.
    let queue: Promise<void> = Promise.resolve();
    const write = (text: string) => {
      queue = queue
        .then(() => stream.write(text))
        .then(
          () => undefined,
          () => undefined, // the peer went away; onAbort ends the loop
        );
    };
    const send = (event: StreamEvent) => write(`data: ${JSON.stringify(event)}\n\n`);

    send({ type: 'RESYNC', collection: '*' });
    const unsubscribe = ctx.changes.subscribe((changes) => {
      for (const event of eventsFor(changes, { user, topics })) send(event);
    });
    const heartbeat = setInterval(() => write(': ping\n\n'), options.heartbeatMs);
    // Why the stream ends: the client went away, or the server drains (SIGTERM), where ending the
    // response cleanly makes the client reconnect, to another process.
    let draining = () => {};
    let gone = () => {};
    const why = await new Promise<'gone' | 'draining'>((resolve) => {
      draining = () => resolve('draining');
      gone = () => resolve('gone');
      stream.onAbort(gone);
      // The request's own signal too: aborted as soon as the connection closes.
      c.req.raw.signal.addEventListener('abort', gone, { once: true });
      // And the connection itself: the two above only hear of a close that came after they were
      // wired up (the signal exists once something reads it, the response's reader once the
      // response is returned). A client gone while the caller's account and open-stream count were
      // still being checked closed its socket before either: without this the stream was served to
      // a closed socket, stuck for good with its subscription and the caller's open-stream count.
      outgoing?.once('close', gone);
      if (stream.aborted || c.req.raw.signal.aborted || outgoing?.destroyed || incoming?.socket?.destroyed) resolve('gone');
      options.shutdown?.addEventListener('abort', draining, { once: true });
      if (options.shutdown?.aborted) resolve('draining');
    });
    options.shutdown?.removeEventListener('abort', draining);
    c.req.raw.signal.removeEventListener('abort', gone);
    outgoing?.off('close', gone);
    clearInterval(heartbeat);
    unsubscribe();
    // A client that went away: its socket goes at once (nothing holds it until a heartbeat's write
    // fails). A drain ends the response after what was queued, so the client sees a clean end.
    if (why === 'gone') incoming?.socket?.destroy();
    else await queue;
    void stream.close().catch(() => undefined);
  }
}
