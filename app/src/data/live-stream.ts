// The one live stream per browser (run by the leader tab): Server-Sent Events
// read through fetch so the bearer goes in a header, never in the URL. Every
// (re)connection starts with RESYNC; a silent connection (no heartbeat) is
// dropped and reopened; 'offline' closes it.
import { createParser } from 'eventsource-parser';
import type { StreamEvent } from '../../../shared/sync-protocol.js';
import type { Connectivity } from './connectivity.js';
import type { SyncHttp, TokenSource } from './http.js';

export interface LiveStreamDeps {
  http: SyncHttp;
  connectivity: Connectivity;
  token: () => TokenSource | null;
  topics: () => string[];
  onEvent: (event: StreamEvent) => void;
  retryTimeMs: number;
  /** No byte for this long (heartbeats come every 15 s) = a dead connection. */
  silenceTimeoutMs?: number;
}

export interface LiveStream {
  start(): void;
  stop(): void;
  /** Reconnects at once (followed topics or the user changed). */
  restart(): void;
  readonly connected: boolean;
}

export function createLiveStream(deps: LiveStreamDeps): LiveStream {
  let running = false;
  let connected = false;
  let controller: AbortController | null = null;
  let wake: (() => void) | null = null;
  const silenceTimeoutMs = deps.silenceTimeoutMs ?? 45_000;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  async function readBody(res: Response, abort: AbortController) {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parser = createParser({
      onEvent: (message) => {
        try {
          deps.onEvent(JSON.parse(message.data) as StreamEvent);
        } catch {
          // an event this version does not understand: ignore it
        }
      },
    });
    let silence = setTimeout(() => abort.abort(), silenceTimeoutMs);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(silence);
        silence = setTimeout(() => abort.abort(), silenceTimeoutMs);
        parser.feed(value);
      }
    } finally {
      clearTimeout(silence);
      reader.cancel().catch(() => {});
    }
  }

  async function loop() {
    while (running) {
      if (!deps.connectivity.isBrowserOnline()) {
        await pause(deps.retryTimeMs);
        continue;
      }
      const abort = new AbortController();
      controller = abort;
      try {
        const topics = deps.topics();
        const query = topics.length > 0 ? `?topics=${topics.map(encodeURIComponent).join(',')}` : '';
        const res = await deps.http.open(`/stream${query}`, deps.token(), abort.signal);
        connected = true;
        await readBody(res, abort);
      } catch {
        // network error, 5xx or abort: connectivity already knows; retry below
      }
      connected = false;
      controller = null;
      if (!running) break;
      // Replaced on purpose (restart()): reconnect at once; after a failure, wait first.
      if (abort.signal.aborted && abort.signal.reason === 'restart') continue;
      await pause(deps.retryTimeMs);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      void loop();
    },
    stop() {
      running = false;
      controller?.abort('stop');
      wake?.();
    },
    restart() {
      if (!running) return;
      if (controller) controller.abort('restart');
      else wake?.();
    },
    get connected() {
      return connected;
    },
  };
}
