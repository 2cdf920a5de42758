// The rate-limit counts of SERVER_PROCESSES=N (cluster/primary.ts): kept once, in the primary's
// memory (http/limit-backend.ts's in-memory backend), and asked for over IPC by each serving
// process, so a caller gets the same limits whichever process its connection landed on (Node's
// cluster hands each new connection to the next process in turn). A limited request costs one
// round trip to the primary (tens of microseconds on one machine); RATE_LIMITS=off costs none.
// A live stream's open count is given back when the stream ends, or by the primary for every
// stream of a serving process that exits.
import { createMemoryLimitBackend, type LimitBackend, type OpenResult, type TakeResult } from '../http/limit-backend.js';
import type { IpcChannel } from './ipc-feed.js';
import { isCruxMessage, type FromWorker, type ToWorker } from './messages.js';

/** A serving process's LimitBackend: each question to the primary, answered in turn. */
export function createIpcLimitBackend(channel: IpcChannel = process as unknown as IpcChannel): LimitBackend {
  let next = 0;
  const waiting = new Map<number, (message: ToWorker) => void>();
  channel.on('message', (message) => {
    if (!isCruxMessage<ToWorker>(message) || (message.crux !== 'took' && message.crux !== 'opened')) return;
    const answer = waiting.get(message.id);
    waiting.delete(message.id);
    answer?.(message);
  });
  const ask = (question: FromWorker & { id: number }) =>
    new Promise<ToWorker>((resolve) => {
      waiting.set(question.id, resolve);
      channel.send(question);
    });
  return {
    async take(takes): Promise<TakeResult> {
      const answer = await ask({ crux: 'take', id: ++next, takes: [...takes] });
      return (answer as Extract<ToWorker, { crux: 'took' }>).result;
    },
    async open(opens): Promise<OpenResult> {
      const { result } = (await ask({ crux: 'open', id: ++next, opens: [...opens] })) as Extract<ToWorker, { crux: 'opened' }>;
      if (!result.ok) return result;
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          channel.send({ crux: 'release', openId: result.openId });
        },
      };
    },
    async close() {},
  };
}

/** The primary's side: the counts, and the open streams of each serving process (released when it exits). */
export function createLimitKeeper() {
  const backend = createMemoryLimitBackend();
  let nextOpen = 0;
  const releases = new Map<number, { owner: number; release: () => void }>();
  return {
    /** Answers one question of serving process `owner` through `reply`; false when the message is not one. */
    async answer(owner: number, message: FromWorker, reply: (answer: ToWorker) => void): Promise<boolean> {
      switch (message.crux) {
        case 'take':
          reply({ crux: 'took', id: message.id, result: await backend.take(message.takes) });
          return true;
        case 'open': {
          const result = await backend.open(message.opens);
          if (!result.ok) {
            reply({ crux: 'opened', id: message.id, result });
            return true;
          }
          const openId = ++nextOpen;
          releases.set(openId, { owner, release: result.release });
          reply({ crux: 'opened', id: message.id, result: { ok: true, openId } });
          return true;
        }
        case 'release':
          releases.get(message.openId)?.release();
          releases.delete(message.openId);
          return true;
        default:
          return false;
      }
    },
    /** A serving process exited: its streams are closed with it. */
    releaseAll(owner: number) {
      for (const [openId, open] of releases) {
        if (open.owner !== owner) continue;
        open.release();
        releases.delete(openId);
      }
    },
  };
}
