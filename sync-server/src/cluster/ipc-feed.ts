// The change feed of one serving process among SERVER_PROCESSES=N on one SQLite file
// (cluster/primary.ts): a write through process A must reach the live streams held by process B.
// A publish goes to this process's listeners at once (as the in-process feed does) and to the
// primary, which hands it to every other serving process; each hands what arrives to its own
// listeners. A publish happens after its COMMIT (domain/context.ts), and the other processes read
// the same file, so a stream that hears a change and pulls finds the change there.
//
// The IPC channel is a local pipe: nothing is lost while both ends live. A serving process that
// the primary restarts after a crash starts with no stream open, so it has nothing to catch up on.
import { createChangeFeed, type ChangeFeed } from '../domain/change-feed.js';
import { isCruxMessage, type FromWorker, type ToWorker } from './messages.js';

export interface IpcChannel {
  send(message: FromWorker): void;
  on(event: 'message', listener: (message: unknown) => void): void;
}

/** The feed over this process's IPC channel to the primary (`process` in a cluster worker). */
export function createIpcChangeFeed(channel: IpcChannel = process as unknown as IpcChannel): ChangeFeed {
  const local = createChangeFeed();
  channel.on('message', (message) => {
    if (isCruxMessage<ToWorker>(message) && message.crux === 'changes') local.publish(message.changes);
  });
  return {
    publish(changes) {
      if (changes.length === 0) return;
      local.publish(changes);
      channel.send({ crux: 'changes', changes });
    },
    subscribe: local.subscribe,
  };
}
