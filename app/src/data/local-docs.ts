// Server documents ⇄ local documents. Local ones carry flags that never leave
// the device: `pending` (a user action the server has not confirmed),
// `pending_delete` (deleted here, hidden at once) and, on votes,
// `confirmed_upvoted` (the state the server's score already counts), and while
// pending `server_base` (the server's state the change was made on, see
// outbox.ts). Which flags a collection has is its registry entry's `localFields`.
import type { RxDocument, WithDeleted } from 'rxdb';
import type { SyncCollection } from '../../../shared/sync-protocol.js';
import { COLLECTIONS, kindOf, storedIn, SYNCED, type LocalRow } from './collections/index.js';
import { MARK_KINDS, markId, type MarkKind } from './collections/mark.schema.js';
import { UNCONFIRMED_BASE } from './collections/server-base.js';

type Doc = Record<string, unknown>;
const LOCAL_FIELDS = [
  'pending',
  'pending_delete',
  'confirmed_upvoted',
  'server_base',
  'seen_at',
  UNCONFIRMED_BASE,
  '_meta',
  '_rev',
  '_attachments',
];

interface SchemaProperty {
  type?: string | readonly string[];
  enum?: readonly unknown[];
}

/** The blank value a schema property accepts: null where allowed, else '', 0, false, [] or the first enum value. */
function blank(property: SchemaProperty | undefined): unknown {
  const types = property?.type === undefined ? [] : typeof property.type === 'string' ? [property.type] : property.type;
  if (types.includes('null')) return null;
  if (property?.enum && property.enum.length > 0) return property.enum[0];
  if (types.includes('string')) return '';
  if (types.includes('integer') || types.includes('number')) return 0;
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return [];
  return {};
}

/**
 * The server sends a deleted topic or response as a slim tombstone (id, seq, the
 * keys that place it): RxDB still stores the deleted document under the
 * collection's schema, so its required fields are filled with blanks. The
 * author's text is not kept on the device either.
 */
export function fillTombstone(collection: SyncCollection, doc: Doc): Doc {
  if (doc._deleted !== true) return doc;
  const schema = COLLECTIONS[storedIn(collection)].schema as unknown as {
    properties: Record<string, SchemaProperty>;
    required?: readonly string[];
  };
  const filled: Doc = { ...doc };
  for (const field of schema.required ?? []) {
    if (filled[field] === undefined) filled[field] = blank(schema.properties[field]);
  }
  return filled;
}

/**
 * A server state as stored locally: confirmed, nothing pending. A collection kept in `marks` gets
 * its kind, and the kind before its id (mark.schema.ts).
 */
export function toLocal(collection: SyncCollection, doc: Doc): WithDeleted<LocalRow> {
  const full = fillTombstone(collection, doc);
  const kind = kindOf(collection);
  const local = { ...full, ...SYNCED[collection].sync.localFields(full as LocalRow) };
  return (kind ? { ...local, kind, id: markId(kind, String(full.id)) } : local) as WithDeleted<LocalRow>;
}

const isMarkKind = (kind: unknown): kind is MarkKind => (MARK_KINDS as readonly unknown[]).includes(kind);

/**
 * A local state as the server reads it (a wire document): a pending delete travels as a tombstone,
 * and a mark without its kind, under its wire id.
 */
export function toWire(doc: Doc): Doc {
  const wire: Doc = { ...doc };
  if (doc.pending_delete === true) wire._deleted = true;
  for (const field of LOCAL_FIELDS) delete wire[field];
  if (isMarkKind(doc.kind)) {
    delete wire.kind;
    wire.id = String(doc.id).slice(markId(doc.kind, '').length);
  }
  return wire;
}

/**
 * A stored document with the user's change made on it: pending, and holding the server's state it
 * was made on (taken at its first pending change: a later one was made on the same), which the
 * outbox sends as the push's assumed state (outbox.ts). An item made here has none.
 * `madeOn`: the user fields the change was made on when the caller knows them (an editor opened
 * before a pull wrote a newer state): they stand in the base for the stored ones.
 */
export function withPendingChange<T extends Doc>(data: T, change: Doc, madeOn: Doc = {}): T {
  const base = data.pending === true ? data.server_base : { ...toWire(data), ...madeOn, _deleted: false };
  return { ...data, ...change, pending: true, ...(base ? { server_base: base } : {}) };
}

/** Writes the user's `change` to a stored document, pending until the outbox has sent it. */
export function markPending<T>(doc: RxDocument<T>, change: NoInfer<Partial<T>>, madeOn?: Doc): Promise<RxDocument<T>> {
  return doc.incrementalModify((data) => withPendingChange(data as Doc, change, madeOn) as typeof data);
}
