// The composers' unsent texts: one list for the device, in a local document of the public database
// (local-list.ts), each draft under the account that typed it. They never leave the device, except
// in "Download my data" (export.ts).
//
// Kept per device, not in each user's database: a draft belongs to the person at this device more
// than to an account id. When the identity provider forgets an account (a development Auth
// emulator does at every restart) the same person signs in again under a new uid, and a draft kept
// in the old uid's database was out of their reach for good. Here a composer finds the drafts
// other accounts left for its place and offers them back (Restore / Discard); a draft is deleted
// only when posted or discarded. The Logout dialog's "remove my data" deletes the person's drafts
// with the rest (world.ts removePublicData keeps only the others'); logging out there keeping the
// data makes them private: a person who chose to log out is someone else than the next one, and
// their drafts wait for their own next sign-in, offered to nobody.
import type { Draft, UnsentDraft } from './api.js';
import { localList, type LocalDocumentsDb, type LocalList } from './local-list.js';

const DOC_ID = 'device-drafts';
/** Where a user's database kept its drafts before they moved here (moved at sign-in: `adoptUserList`). */
const USER_DOC_ID = 'drafts';

/** A draft as stored: `owner` is the uid it was typed as. */
export interface DeviceDraft extends Draft {
  owner: string;
  /** Its account logged out keeping its data (`setPrivate`): not offered to another until it signs in again. */
  private?: true;
}

const strip = ({ owner: _owner, private: _private, ...draft }: DeviceDraft): Draft => draft;
const isOf = (owner: string, key: string) => (draft: DeviceDraft) => draft.owner === owner && draft.key === key;

/** Keeps, draft by draft (`same`), the newer of the stored one and each of `incoming` (in their order); `taken`: how many were kept. */
function mergeNewer<T extends Draft>(stored: readonly T[], incoming: readonly T[], same: (a: T, b: T) => boolean) {
  const list = [...stored];
  let taken = 0;
  for (const draft of incoming) {
    const at = list.findIndex((d) => same(d, draft));
    if (at >= 0 && list[at]!.updated_at > draft.updated_at) continue;
    if (at >= 0) list.splice(at, 1);
    list.push(draft);
    taken += 1;
  }
  return { list, taken };
}

/** `list.change` merging `incoming` by mergeNewer; resolves to the count taken. */
async function mergeInto<T extends Draft>(list: LocalList<T>, incoming: readonly T[], same: (a: T, b: T) => boolean): Promise<number> {
  let taken = 0;
  await list.change((stored) => {
    const merged = mergeNewer(stored, incoming, same);
    taken = merged.taken;
    return merged.list;
  });
  return taken;
}

/** The drafts of the device, in its public database. */
export function draftsIn(db: LocalDocumentsDb) {
  const drafts = localList<DeviceDraft>(db, DOC_ID);
  return {
    all: drafts.read,
    async of(owner: string): Promise<Draft[]> {
      return (await drafts.read()).filter((draft) => draft.owner === owner).map(strip);
    },
    async load(owner: string, key: string): Promise<Draft | null> {
      const draft = (await drafts.read()).find(isOf(owner, key));
      return draft ? strip(draft) : null;
    },
    save: (owner: string, draft: Draft) =>
      drafts.change((list) => [...list.filter((d) => !isOf(owner, draft.key)(d)), { ...draft, owner }]),
    async remove(owner: string, key: string) {
      // An empty composer deletes its draft at every pause: no write when there is none.
      if (!(await drafts.read()).some(isOf(owner, key))) return;
      await drafts.change((list) => list.filter((d) => !isOf(owner, key)(d)));
    },
    /** The drafts for `key` typed as another account than `owner` (every one, signed out), newest first. */
    async unsentFor(owner: string | null, key: string): Promise<UnsentDraft[]> {
      return (await drafts.read())
        .filter((draft) => draft.key === key && draft.owner !== owner && !draft.private)
        .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))
        .map(({ owner: from, key: k, text, updated_at }) => ({ owner: from, key: k, text, updated_at }));
    },
    /** `from`'s draft for `key` becomes `owner`'s, holding `text` (what the box shows once restored): one write. */
    adopt: (from: string, owner: string, key: string, text: string, updatedAt: string) =>
      drafts.change((list) => [
        ...list.filter((d) => !isOf(from, key)(d) && !isOf(owner, key)(d)),
        { key, text, extra: {}, updated_at: updatedAt, owner },
      ]),
    /** Adds `owner`'s `incoming`, a draft already here and newer than an incoming one being kept; resolves to the count taken. */
    merge: (owner: string, incoming: readonly Draft[]) =>
      mergeInto(
        drafts,
        incoming.map((draft) => ({ ...draft, owner })),
        (a, b) => a.owner === b.owner && a.key === b.key,
      ),
    /**
     * Marks `owner`'s drafts private (the person logged out: nobody else is offered them) or, as
     * they sign in again, not (should their account be lost after, the drafts are offered back).
     */
    async setPrivate(owner: string, hidden: boolean) {
      if (!(await drafts.read()).some((d) => d.owner === owner && Boolean(d.private) !== hidden)) return;
      await drafts.change((list) =>
        list.map((d) => {
          if (d.owner !== owner) return d;
          const { private: _private, ...open } = d;
          return hidden ? { ...open, private: true as const } : open;
        }),
      );
    },
    /** Every draft typed as another account than `owner` (what a removal of `owner`'s data keeps). */
    async notOf(owner: string): Promise<DeviceDraft[]> {
      return (await drafts.read()).filter((draft) => draft.owner !== owner);
    },
    /** Puts back drafts read by `notOf` from a database since removed. */
    restore: (kept: readonly DeviceDraft[]) => drafts.change((list) => [...list, ...kept.filter((d) => !list.some(isOf(d.owner, d.key)))]),
  };
}

/** The drafts list of a user's database (where drafts were kept before): filled by retired.ts's move of the older collection. */
export function userDraftList(db: LocalDocumentsDb) {
  const list = localList<Draft>(db, USER_DOC_ID);
  return { ...list, merge: (incoming: readonly Draft[]) => mergeInto(list, incoming, (a, b) => a.key === b.key) };
}

/**
 * Moves the drafts a user's database still keeps into the device's list, under that user (a
 * newer draft already there is kept), then empties the user's list: a move run again takes nothing twice.
 */
export async function adoptUserList(userDb: LocalDocumentsDb, publicDb: LocalDocumentsDb, owner: string): Promise<void> {
  const kept = userDraftList(userDb);
  const drafts = await kept.read();
  if (drafts.length === 0) return;
  await draftsIn(publicDb).merge(owner, drafts);
  await kept.change(() => []);
}
