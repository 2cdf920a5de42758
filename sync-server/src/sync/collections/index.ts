// The server's registry of replicated collections. Keyed by SyncCollection, so a
// collection added to shared/sync-protocol.ts without a descriptor does not compile;
// its privacy must agree with PRIVATE_COLLECTIONS (tests/sync-server/sync-collections.test.ts).
import type { SyncCollection } from '../../../../shared/sync-protocol.js';
import type { CollectionDescriptor } from './descriptor.js';
import { blocks } from './blocks.js';
import { follows } from './follows.js';
import { notifications } from './notifications.js';
import { profile } from './profile.js';
import { reports } from './reports.js';
import { responses } from './responses.js';
import { stances } from './stances.js';
import { topics } from './topics.js';
import { votes } from './votes.js';

export const COLLECTIONS: { [C in SyncCollection]: CollectionDescriptor<C> } = {
  topics,
  responses,
  votes,
  notifications,
  profile,
  stances,
  blocks,
  reports,
  follows,
};

export const descriptorOf = <C extends SyncCollection>(collection: C): CollectionDescriptor<C> => COLLECTIONS[collection];

export type { CollectionDescriptor, Listener, PullScope } from './descriptor.js';
export { blockDoc } from './blocks.js';
export { followDoc } from './follows.js';
export { notificationDoc } from './notifications.js';
export { profileDoc } from './profile.js';
export { reportDoc } from './reports.js';
export { responseDoc } from './responses.js';
export { stanceDoc } from './stances.js';
export { topicDoc } from './topics.js';
export { voteDoc } from './votes.js';
