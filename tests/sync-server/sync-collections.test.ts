// The server's collection registry agrees with the shared protocol: every synced
// collection has a descriptor, and the private ones are exactly PRIVATE_COLLECTIONS.
import { describe, expect, it } from 'vitest';
import { PRIVATE_COLLECTIONS, SYNC_COLLECTIONS } from '../../shared/sync-protocol.js';
import { COLLECTIONS, type Listener } from '../../sync-server/src/sync/collections/index.js';

describe('server collection registry', () => {
  it('has one descriptor per synced collection', () => {
    expect(Object.keys(COLLECTIONS).sort()).toEqual([...SYNC_COLLECTIONS].sort());
  });

  it.each(SYNC_COLLECTIONS)('%s is private exactly when PRIVATE_COLLECTIONS says so', (name) => {
    expect(COLLECTIONS[name].privacy).toBe(PRIVATE_COLLECTIONS.includes(name) ? 'private' : 'public');
  });

  it('tells a live-stream listener only what it may see', () => {
    const ada = { uid: 'ada', name: 'Ada', email: null };
    const listener: Listener = { user: ada, topics: new Set(['t1']) };
    const anonymous: Listener = { user: null, topics: new Set(['t1']) };
    expect(COLLECTIONS.topics.streamEvent({ collection: 'topics' }, anonymous)).toEqual({ type: 'RESYNC', collection: 'topics' });
    expect(COLLECTIONS.responses.streamEvent({ collection: 'responses', topicId: 't1' }, anonymous)).toEqual({
      type: 'RESYNC',
      collection: 'responses',
      topic_id: 't1',
    });
    expect(COLLECTIONS.responses.streamEvent({ collection: 'responses', topicId: 't2' }, listener)).toBeNull();
    expect(COLLECTIONS.votes.streamEvent({ collection: 'votes', uid: 'ada' }, listener)).toEqual({ type: 'RESYNC', collection: 'votes' });
    expect(COLLECTIONS.notifications.streamEvent({ collection: 'notifications', uid: 'ada' }, listener)).toEqual({
      type: 'RESYNC',
      collection: 'notifications',
    });
    expect(COLLECTIONS.profile.streamEvent({ collection: 'profile', uid: 'ada' }, listener)).toEqual({
      type: 'RESYNC',
      collection: 'profile',
    });
    expect(COLLECTIONS.votes.streamEvent({ collection: 'votes', uid: 'bob' }, listener)).toBeNull();
    expect(COLLECTIONS.notifications.streamEvent({ collection: 'notifications', uid: 'bob' }, listener)).toBeNull();
    expect(COLLECTIONS.profile.streamEvent({ collection: 'profile', uid: 'ada' }, anonymous)).toBeNull();
    // One person's stance: told to its owner only.
    expect(COLLECTIONS.stances.streamEvent({ collection: 'stances', uid: 'ada' }, listener)).toEqual({
      type: 'RESYNC',
      collection: 'stances',
    });
    expect(COLLECTIONS.stances.streamEvent({ collection: 'stances', uid: 'bob' }, listener)).toBeNull();
    expect(COLLECTIONS.stances.streamEvent({ collection: 'stances', uid: 'ada' }, anonymous)).toBeNull();
  });
});
