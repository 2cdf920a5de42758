// Server documents ⇄ local documents. Local ones carry flags that never leave
// the device: `pending` (a user action the server has not confirmed),
// `pending_delete` (deleted here, hidden at once) and, on votes,
// `confirmed_upvoted` (the state the server's score already counts). Which
// flags a collection has is its registry entry's `localFields`.
import type { WithDeleted } from 'rxdb';
import type { SyncCollection } from '../../../shared/sync-protocol.js';
import { SYNCED, type LocalRow } from './collections/index.js';

type Doc = Record<string, unknown>;
const LOCAL_FIELDS = ['pending', 'pending_delete', 'confirmed_upvoted', '_meta', '_rev', '_attachments'];

/** A server state as stored locally: confirmed, nothing pending. */
export function toLocal(collection: SyncCollection, doc: Doc): WithDeleted<LocalRow> {
  return { ...doc, ...SYNCED[collection].sync.localFields(doc as LocalRow) } as WithDeleted<LocalRow>;
}

/** A local state as the server reads it (a wire document): a pending delete travels as a tombstone. */
export function toWire(doc: Doc): Doc {
  const wire: Doc = { ...doc };
  if (doc.pending_delete === true) wire._deleted = true;
  for (const field of LOCAL_FIELDS) delete wire[field];
  return wire;
}
