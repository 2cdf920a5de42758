// "Download my data": the signed-in user's own data as it is on this device (no
// network: works offline), in the format docs/SYNC.md documents; and the import
// of the drafts of such an export back into the same user's drafts on the device.
import { SYNC_COLLECTIONS } from '../../../shared/sync-protocol.js';
import { badRequest, forbidden } from '../../../shared/errors.js';
import type { Session } from './actions.js';
import type { CruxExport, ExportedItem } from './api.js';
import { SYNCED } from './collections/index.js';
import { draftsIn } from './drafts.js';
import type { PublicDb } from './db.js';
import { toWire } from './local-docs.js';

const plain = (doc: { toJSON(): unknown }) => doc.toJSON() as Record<string, unknown>;

/** A local item as exported: the wire document plus whether it still waits to be sent. */
function item(doc: Record<string, unknown>): ExportedItem {
  const { seq: _seq, ...wire } = toWire(doc);
  return { ...wire, id: String(doc.id), pending: doc.pending === true };
}

export async function exportMyData(publicDb: PublicDb, s: Session): Promise<CruxExport> {
  const [drafts, ...parts] = await Promise.all([
    draftsIn(publicDb).of(s.uid),
    // What each synced collection puts in (collections/index.ts: exportPart).
    ...SYNC_COLLECTIONS.map((collection) => SYNCED[collection].exportPart({ publicDb, session: s, item: (doc) => item(plain(doc)) })),
  ]);
  // In the format's order (docs/SYNC.md); each collection's part fills its fields in.
  const empty: CruxExport = {
    format: 'crux-export',
    version: 1,
    exported_at: new Date().toISOString(),
    user: { uid: s.uid, display_name: null },
    topics: [],
    responses: [],
    votes: [],
    notifications: [],
    preferences: null,
    stances: [],
    blocks: [],
    follows: [],
    reports: [],
    drafts: drafts.map((d) => ({ key: d.key, text: d.text, extra: { ...d.extra }, updated_at: d.updated_at })),
  };
  return parts.reduce<CruxExport>((exported, part) => ({ ...exported, ...part }), empty);
}

interface ImportedDraft {
  key: string;
  text: string;
  extra: Record<string, unknown>;
  updated_at: string;
}

const isDraft = (value: unknown): value is ImportedDraft => {
  if (!value || typeof value !== 'object') return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d.key === 'string' &&
    d.key.length > 0 &&
    d.key.length <= 200 &&
    typeof d.text === 'string' &&
    typeof d.updated_at === 'string' &&
    (d.extra === undefined || (typeof d.extra === 'object' && d.extra !== null && !Array.isArray(d.extra)))
  );
};

/**
 * Imports the drafts of an export made by the same user; another user's export is refused.
 * A draft already here and newer than the imported one is kept. Resolves to the count imported.
 */
export async function importDrafts(publicDb: PublicDb, s: Session, exported: unknown): Promise<number> {
  const data = exported as Partial<CruxExport> | null;
  if (!data || typeof data !== 'object' || data.format !== 'crux-export' || data.version !== 1 || !Array.isArray(data.drafts)) {
    throw badRequest('This file is not a Crux export.');
  }
  if (data.user?.uid !== s.uid) throw forbidden('This export belongs to another account: its drafts cannot be imported here.');
  const drafts: unknown[] = data.drafts;
  if (!drafts.every(isDraft)) throw badRequest('This export has a draft that cannot be read.');
  // In one write: an export with a draft that cannot be read imports none.
  return draftsIn(publicDb).merge(
    s.uid,
    drafts.map((d) => ({ key: d.key, text: d.text, extra: { ...(d.extra ?? {}) }, updated_at: d.updated_at })),
  );
}
