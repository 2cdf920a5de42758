// Keeps "in the order made" across collections: a reply is not pushed before the
// topic (or parent response) it answers reached the server, nor a vote before
// its target. An item made here has seq 0 until the server's state comes back.
import { filter, firstValueFrom, timeout } from 'rxjs';
import type { RxCollection } from 'rxdb';
import type { PublicDb } from './db.js';

const WAIT_MS = 15_000;

async function confirmed(collection: RxCollection<any>, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const query = collection.findOne(id);
  const doc = await query.exec();
  if (!doc || doc.get('seq') > 0) return;
  // Times out into a thrown error: RxDB retries the push later.
  await firstValueFrom(
    collection.findOne(id).$.pipe(
      filter((d: any) => !d || d.get('seq') > 0),
      timeout(WAIT_MS),
    ),
  );
}

export function createDependencyWaiter(db: PublicDb) {
  return {
    async responses(docs: Record<string, any>[]) {
      // Parents in the same push are fine: the server applies a batch parents first.
      const inBatch = new Set(docs.map((doc) => doc.id as string));
      const outside = (id: string | null | undefined) => (id && !inBatch.has(id) ? id : null);
      for (const doc of docs) {
        await confirmed(db.topics, doc.topic_id);
        await confirmed(db.responses, outside(doc.parent_response_id));
        await confirmed(db.responses, outside(doc.quoted_response_id));
      }
    },
    async votes(docs: Record<string, any>[]) {
      for (const doc of docs) {
        await confirmed(doc.target_type === 'topic' ? db.topics : db.responses, doc.target_id);
      }
    },
  };
}
