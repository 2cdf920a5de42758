// The live stream's view of the change feed when reads go to a replica (READ_DATABASE_URL,
// store/pg/replica.ts): a stream tells its app to pull, and that pull reads the replica, so the
// event waits until the replica has replayed the commit it reports. Told at once, the app would pull
// from a replica that does not have the rows yet, get less (never a gap) and not ask again until the
// next change. Batches keep their order; the wait is bounded by the replica's maximum lag.
import type { ChangeFeed, ChangeListener } from '../domain/change-feed.js';

export function afterReplica(feed: ChangeFeed, caughtUp: () => Promise<void>, log: (message: string, error?: unknown) => void): ChangeFeed {
  const listeners = new Set<ChangeListener>();
  let tail: Promise<void> = Promise.resolve();
  feed.subscribe((changes) => {
    // Started now, at the commit's notice: the position waited for is at or past that commit.
    const replayed = caughtUp().catch((error: unknown) => log('read replica: waiting for it to replay a change failed', error));
    tail = tail
      .then(() => replayed)
      .then(() => {
        for (const listener of listeners) listener(changes);
      });
  });
  return {
    publish: (changes) => feed.publish(changes),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
