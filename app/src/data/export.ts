// "Download my data": the signed-in user's own data as it is on this device (no
// network: works offline), in the format docs/SYNC.md documents; and the import
// of the drafts of such an export back into the same user's database.
import { SYNC_COLLECTIONS, type SyncCollection } from '../../../shared/sync-protocol.js';
import type { Notification } from '../../../shared/types.js';
import { badRequest, forbidden } from '../../../shared/errors.js';
import type { Session } from './actions.js';
import type { CruxExport, ExportedItem } from './api.js';
import type { PublicDb } from './db.js';
import { toWire } from './local-docs.js';

const plain = (doc: { toJSON(): unknown }) => doc.toJSON() as Record<string, unknown>;

/** A local item as exported: the wire document plus whether it still waits to be sent. */
function item(doc: Record<string, unknown>): ExportedItem {
  const { seq: _seq, ...wire } = toWire(doc);
  return { ...wire, id: String(doc.id), pending: doc.pending === true };
}

/** The parts of an export a collection fills. */
type ExportPart = Partial<Omit<CruxExport, 'format' | 'version' | 'exported_at'>>;

/** What each synced collection puts in the export. A new collection without an entry does not compile. */
const EXPORTS: Record<SyncCollection, (publicDb: PublicDb, s: Session) => Promise<ExportPart>> = {
  topics: async (publicDb, s) => ({
    topics: (await publicDb.topics.find({ selector: { creator_uid: s.uid } }).exec()).map(plain).map(item),
  }),
  responses: async (publicDb, s) => ({
    responses: (await publicDb.responses.find({ selector: { creator_uid: s.uid } }).exec()).map(plain).map(item),
  }),
  votes: async (_, s) => ({
    votes: (await s.db.votes.find().exec()).map((vote) => ({
      target_type: vote.target_type,
      target_id: vote.target_id,
      topic_id: vote.topic_id,
      upvoted: vote.upvoted,
      updated_at: vote.updated_at,
    })),
  }),
  notifications: async (_, s) => ({
    notifications: (await s.db.notifications.find().exec()).map((n): Notification => ({
      id: n.id,
      type: n.type,
      actor_display_name: n.actor_display_name ?? null,
      target_summary: n.target_summary,
      target_id: n.target_id,
      created_at: n.created_at,
      is_read: n.is_read,
    })),
  }),
  profile: async (_, s) => {
    const profile = await s.db.profile.findOne(s.uid).exec();
    return {
      user: { uid: s.uid, display_name: profile?.display_name ?? null },
      preferences: profile ? { receive_weekly_summary: profile.receive_weekly_summary } : null,
    };
  },
  stances: async (_, s) => ({
    stances: (await s.db.stances.find().exec()).map((doc) => ({
      topic_id: doc.topic_id,
      stance: doc.stance,
      first_stance: doc.first_stance,
      history: doc.history.map((change) => ({ stance: change.stance, at: change.at })),
      credits: [...doc.credits],
      updated_at: doc.updated_at,
      pending: doc.pending,
    })),
  }),
};

export async function exportMyData(publicDb: PublicDb, s: Session): Promise<CruxExport> {
  const [drafts, ...parts] = await Promise.all([
    s.db.drafts.find().exec(),
    ...SYNC_COLLECTIONS.map((collection) => EXPORTS[collection](publicDb, s)),
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
    drafts: drafts.map((d) => ({ key: d.key, text: d.text, extra: { ...(d.extra as Record<string, unknown>) }, updated_at: d.updated_at })),
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
export async function importDrafts(s: Session, exported: unknown): Promise<number> {
  const data = exported as Partial<CruxExport> | null;
  if (!data || typeof data !== 'object' || data.format !== 'crux-export' || data.version !== 1 || !Array.isArray(data.drafts)) {
    throw badRequest('This file is not a Crux export.');
  }
  if (data.user?.uid !== s.uid) throw forbidden('This export belongs to another account: its drafts cannot be imported here.');
  let count = 0;
  for (const draft of data.drafts) {
    if (!isDraft(draft)) throw badRequest('This export has a draft that cannot be read.');
    const existing = await s.db.drafts.findOne(draft.key).exec();
    if (existing && existing.updated_at > draft.updated_at) continue;
    await s.db.drafts.upsert({ key: draft.key, text: draft.text, extra: { ...(draft.extra ?? {}) }, updated_at: draft.updated_at });
    count += 1;
  }
  return count;
}
