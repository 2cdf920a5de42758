// The write token of SERVER_PROCESSES=N (store/sqlite/transactions.ts): SQLite lets one connection
// write at a time, and a process that polled for the file's lock would mostly find it taken by a
// busy neighbour. So the primary hands the right to write from process to process, first come,
// first served: a process keeps the token while nobody else asks (its writes cost no round trip),
// and when another asks, it gives it back at the end of the group commit it has open. A process
// that exits (a crash included) gives its token, and its place in the queue, up with it.
import type { WriteToken } from '../store/types.js';
import type { IpcChannel } from './ipc-feed.js';
import { isCruxMessage, type ToWorker } from './messages.js';

/** A serving process's side: asks the primary over IPC. */
export function createIpcWriteToken(channel: IpcChannel = process as unknown as IpcChannel): WriteToken {
  let granted: (() => void) | undefined;
  const wanted: Array<() => void> = [];
  channel.on('message', (message) => {
    if (!isCruxMessage<ToWorker>(message)) return;
    if (message.crux === 'token') {
      const resolve = granted;
      granted = undefined;
      resolve?.();
    } else if (message.crux === 'token-wanted') {
      for (const listener of wanted) listener();
    }
  });
  return {
    // transactions.ts asks once at a time (its callers share the one request).
    acquire: () =>
      new Promise<void>((resolve) => {
        granted = resolve;
        channel.send({ crux: 'want-token' });
      }),
    release: () => channel.send({ crux: 'release-token' }),
    onWanted: (listener) => void wanted.push(listener),
  };
}

/** The primary's side: who holds the token and who waits for it, by process index. */
export function createTokenKeeper(send: (index: number, message: ToWorker) => void) {
  let holder: number | null = null;
  const queue: number[] = [];
  const passOn = () => {
    holder = queue.shift() ?? null;
    if (holder === null) return;
    send(holder, { crux: 'token' });
    if (queue.length > 0) send(holder, { crux: 'token-wanted' });
  };
  return {
    want(index: number) {
      if (holder === null) {
        holder = index;
        send(index, { crux: 'token' });
      } else if (holder === index) {
        send(index, { crux: 'token' }); // it holds it already (a request crossed a grant)
      } else if (!queue.includes(index)) {
        queue.push(index);
        if (queue.length === 1) send(holder, { crux: 'token-wanted' });
      }
    },
    release(index: number) {
      if (holder === index) passOn();
    },
    /** A process exited. */
    gone(index: number) {
      const at = queue.indexOf(index);
      if (at >= 0) queue.splice(at, 1);
      if (holder === index) passOn();
    },
    holder: () => holder,
  };
}
