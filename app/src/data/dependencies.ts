// Keeps "in the order made" across collections: a reply is not pushed before the
// topic (or parent response) it answers reached the server, nor a vote before
// its target. An item made here has seq 0 until the server's state comes back.
// What a document depends on is its collection's registry entry (`dependsOn`).
import { filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import type { SyncCollection } from '../../../shared/sync-protocol.js';
import { SYNCED, type LocalRow } from './collections/index.js';
import type { PublicDb } from './db.js';

const WAIT_MS = 15_000;

/** What this file needs of a public collection: an item's seq, now and live. */
interface SeqSource {
  findOne(id: string): { exec(): Promise<{ seq: number } | null>; $: Observable<{ seq: number } | null> };
}

async function confirmed(collection: SeqSource, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const doc = await collection.findOne(id).exec();
  if (!doc || doc.seq > 0) return;
  // Times out into a thrown error: RxDB retries the push later.
  await firstValueFrom(
    collection.findOne(id).$.pipe(
      filter((d) => !d || d.seq > 0),
      timeout(WAIT_MS),
    ),
  );
}

export function createDependencyWaiter(db: PublicDb) {
  return async (collection: SyncCollection, docs: LocalRow[]): Promise<void> => {
    const dependsOn = SYNCED[collection].sync.dependsOn;
    if (!dependsOn) return;
    // Parents in the same push are fine: the server applies a batch parents first.
    const inBatch = new Set(docs.map((doc) => doc.id));
    for (const doc of docs) {
      for (const dependency of dependsOn(doc)) {
        if (dependency.collection === collection && dependency.id && inBatch.has(dependency.id)) continue;
        await confirmed(db[dependency.collection], dependency.id);
      }
    }
  };
}
