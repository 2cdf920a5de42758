// Tells listeners (the live replication stream) which collections changed after
// a write has committed. In-process for one server; with several processes on one PostgreSQL
// database, store/pg/change-feed.ts carries it to the others too.

import type { PrivateCollection } from '../../../shared/sync-protocol.js';

export type Change =
  | { collection: 'topics' }
  // `votesKept`: the topic's votes and removed responses are as they were (a new or edited response,
  // a stance), so its opinion groups cannot have changed (domain/opinion-groups.ts does not recompute).
  | { collection: 'responses'; topicId: string; votesKept?: true }
  // A user's own collection changed: only that user's streams hear it (a new private collection needs no line here).
  // `pushes`: new notifications of which pushes were queued (push/sender.ts wakes for these only).
  | { collection: PrivateCollection; uid: string; pushes?: true }
  // Anything may have changed: the feed may have missed changes (a PostgreSQL process's LISTEN
  // connection was down, store/pg/change-feed.ts), so every stream tells its app to pull everything.
  | { collection: '*' };

/** The change that makes every listener resync everything. */
export const EVERYTHING: Change = { collection: '*' };

export type ChangeListener = (changes: Change[]) => void;

export interface ChangeFeed {
  publish(changes: Change[]): void;
  subscribe(listener: ChangeListener): () => void;
}

export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<ChangeListener>();
  return {
    publish(changes) {
      if (changes.length === 0) return;
      for (const listener of listeners) listener(changes);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
