// The composers' unsent texts, per user: one list in a local document of the user's database
// (local-list.ts). They never leave the device, except in "Download my data" (export.ts).
import type { Draft } from './api.js';
import { localList, type LocalDocumentsDb } from './local-list.js';

const DOC_ID = 'drafts';

/** Keeps, key by key, the newer of the stored draft and each of `incoming` (in their order); `taken`: how many were kept. */
function mergeNewer(stored: readonly Draft[], incoming: readonly Draft[]): { list: Draft[]; taken: number } {
  const byKey = new Map(stored.map((draft) => [draft.key, draft]));
  let taken = 0;
  for (const draft of incoming) {
    const existing = byKey.get(draft.key);
    if (existing && existing.updated_at > draft.updated_at) continue;
    byKey.set(draft.key, draft);
    taken += 1;
  }
  return { list: [...byKey.values()], taken };
}

export function draftsIn(db: LocalDocumentsDb) {
  const drafts = localList<Draft>(db, DOC_ID);
  return {
    all: drafts.read,
    async load(key: string): Promise<Draft | null> {
      return (await drafts.read()).find((draft) => draft.key === key) ?? null;
    },
    save: (draft: Draft) => drafts.change((list) => [...list.filter((d) => d.key !== draft.key), draft]),
    async remove(key: string) {
      // An empty composer deletes its draft at every pause: no write when there is none.
      if (!(await drafts.read()).some((draft) => draft.key === key)) return;
      await drafts.change((list) => list.filter((draft) => draft.key !== key));
    },
    /** Adds `incoming`, a draft already here and newer than an incoming one being kept; resolves to the count taken. */
    async merge(incoming: readonly Draft[]): Promise<number> {
      let taken = 0;
      await drafts.change((list) => {
        const merged = mergeNewer(list, incoming);
        taken = merged.taken;
        return merged.list;
      });
      return taken;
    },
  };
}
