// The client's collection registry agrees with the shared protocol: every synced
// collection has an entry, and the private ones live in the per-user database.
import { describe, expect, it } from 'vitest';
import { PRIVATE_COLLECTIONS, SYNC_COLLECTIONS } from '../../shared/sync-protocol.js';
import { COLLECTIONS, SYNCED } from '../../app/src/data/collections/index.js';

describe('collection registry', () => {
  it('keeps private collections in the user database and public ones in the public database', () => {
    for (const name of SYNC_COLLECTIONS) {
      expect(SYNCED[name].database, name).toBe(PRIVATE_COLLECTIONS.includes(name) ? 'user' : 'public');
    }
  });

  it('names each schema after its collection', () => {
    for (const [name, entry] of Object.entries(COLLECTIONS)) expect(entry.schema.title).toBe(name);
  });
});
