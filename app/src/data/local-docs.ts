// Server documents ⇄ local documents. Local ones carry flags that never leave
// the device: `pending` (a user action the server has not confirmed),
// `pending_delete` (deleted here, hidden at once) and, on votes,
// `confirmed_upvoted` (the state the server's score already counts).
import type { AnySyncDoc, SyncCollection } from '../../../shared/sync-protocol.js';

type Doc = Record<string, unknown>;
const LOCAL_FIELDS = ['pending', 'pending_delete', 'confirmed_upvoted', '_meta', '_rev', '_attachments'];

/** A server state as stored locally: confirmed, nothing pending. */
export function toLocal(collection: SyncCollection, doc: Doc): Doc {
  const local: Doc = { ...doc, pending: false };
  if (collection === 'topics' || collection === 'responses') local.pending_delete = false;
  if (collection === 'votes') local.confirmed_upvoted = doc.upvoted === true;
  return local;
}

/** A local state as the server reads it: a pending delete travels as a tombstone. */
export function toWire(doc: Doc): AnySyncDoc {
  const wire: Doc = { ...doc };
  if (doc.pending_delete === true) wire._deleted = true;
  for (const field of LOCAL_FIELDS) delete wire[field];
  return wire as unknown as AnySyncDoc;
}
