// Drafts and sync problems moved from collections of the user's database into local documents of
// it. A device that kept them as collections, in the previous app's real shapes, opens with every
// draft and problem where the app reads them (load, export, the sync problems list, discard), and
// the old collections are gone from the database; a move interrupted and run again takes nothing twice.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase, getAllCollectionDocuments, OPEN_COLLECTIONS } from 'rxdb';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { describe, expect, it } from 'vitest';
import { draftSchema } from '../../app/src/data/collections/draft.schema.js';
import { syncProblemSchema } from '../../app/src/data/collections/sync-problem.schema.js';
import { userDbName } from '../../app/src/data/db.js';
import { userDraftList } from '../../app/src/data/drafts.js';
import { problemsIn } from '../../app/src/data/problems.js';
import { startClient, until, type ClientOptions } from '../fixtures/client.js';

addRxPlugin(RxDBLocalDocumentsPlugin);

const UID = 'old-device-uid';
// Nobody is asked anything: the device opens offline, as after a reload without network.
const user: NonNullable<ClientOptions['user']> = {
  uid: UID,
  email: 'old@example.com',
  password: 'unused',
  name: 'Old Timer',
  token: 'unused',
  refreshToken: 'unused',
  refresh: async () => 'unused',
};

const reply = { key: 'reply:r-1', text: 'Half a reply', extra: { type: 'against' }, updated_at: '2026-01-02T03:04:05.000Z' };
const title = { key: 'topic:new', text: 'A title in progress', extra: {}, updated_at: '2026-01-03T00:00:00.000Z' };
const conflict = {
  id: 'p-conflict',
  kind: 'conflict' as const,
  target_collection: 'responses',
  itemId: 'r-2',
  action: 'edit',
  error: 'Someone changed this first.',
  status: 409,
  localState: { content: 'my wording' },
  serverState: { content: 'their wording' },
  created_at: '2026-01-04T00:00:00.000Z',
};
const rejected = {
  id: 'p-rejected',
  kind: 'rejected' as const,
  target_collection: 'votes',
  itemId: 'v-1',
  action: 'vote',
  error: 'Topic not found.',
  status: 404,
  localState: { upvoted: true },
  created_at: '2026-01-05T00:00:00.000Z',
};

/** The user's database as the previous app left it: drafts and sync problems as collections (`moved`: some already moved too). */
async function previousDevice(moved?: { drafts: (typeof reply)[]; problems: (typeof conflict)[] }) {
  const indexedDB = new IDBFactory();
  const prefix = `localmove${Date.now().toString(36)}`;
  const storage = wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
  const old = await createRxDatabase({ name: userDbName(prefix, UID), storage, multiInstance: false, localDocuments: true });
  const { drafts, sync_problems } = await old.addCollections({
    drafts: { schema: draftSchema },
    sync_problems: { schema: syncProblemSchema },
  });
  await drafts.bulkInsert([reply, title]);
  await sync_problems.bulkInsert([conflict, rejected]);
  if (moved) {
    await userDraftList(old).merge(moved.drafts);
    await problemsIn(old).add(
      moved.problems.map(({ target_collection, ...rest }) => ({ ...rest, collection: target_collection as 'responses' })),
    );
  }
  await old.close();
  return { indexedDB, prefix };
}

/** The names of the collections the user's database holds on the device. */
async function collectionsLeft(indexedDB: IDBFactory, prefix: string): Promise<string[]> {
  const db = await createRxDatabase({
    name: userDbName(prefix, UID),
    storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
    multiInstance: false,
  });
  try {
    return (await getAllCollectionDocuments(db.internalStore)).map((doc) => doc.data.name).sort();
  } finally {
    await db.close();
  }
}

/** The user's database holds its collections (votes among them), and no longer drafts nor sync problems. */
function expectMoved(collections: string[]) {
  expect(collections).toContain('votes');
  expect(collections).not.toContain('drafts');
  expect(collections).not.toContain('sync_problems');
}

describe('drafts and sync problems moved into local documents', () => {
  it('are all there after the first open, and the old collections are gone', async () => {
    const { indexedDB, prefix } = await previousDevice();
    const device = await startClient('http://127.0.0.1:9', { user, indexedDB, prefix, startOffline: true });
    try {
      expect(await device.data.loadDraft('reply:r-1')).toEqual(reply);
      expect(await device.data.loadDraft('topic:new')).toEqual(title);
      expect((await device.data.exportMyData()).drafts).toEqual(expect.arrayContaining([reply, title]));
      const problems = await until(device.data.syncProblems$(), (list) => list.length === 2);
      const { target_collection: _responses, ...conflictRest } = conflict;
      const { target_collection: _votes, ...rejectedRest } = rejected;
      expect(problems).toEqual([
        { ...conflictRest, collection: 'responses' },
        { ...rejectedRest, collection: 'votes', serverState: null },
      ]);
      await device.data.discardProblem('p-rejected');
      await until(device.data.syncProblems$(), (list) => list.length === 1 && list[0]!.id === 'p-conflict');
      const open = [...OPEN_COLLECTIONS].map((c) => c.name);
      expect(open).toContain('votes');
      expect(open).not.toContain('drafts');
      expect(open).not.toContain('sync_problems');
    } finally {
      await device.close();
    }
    expectMoved(await collectionsLeft(indexedDB, prefix));

    // Opened again: what the user changed since stays changed (nothing moved a second time).
    const again = await startClient('http://127.0.0.1:9', { user, indexedDB, prefix, startOffline: true });
    try {
      expect((await until(again.data.syncProblems$(), (list) => list.length === 1))[0]!.id).toBe('p-conflict');
      expect(await again.data.loadDraft('reply:r-1')).toEqual(reply);
    } finally {
      await again.close();
    }
  });

  it('a move interrupted after the copy and run again keeps one of each, the newer draft winning', async () => {
    const newer = { ...reply, text: 'Half a reply, then more', updated_at: '2026-02-01T00:00:00.000Z' };
    const { indexedDB, prefix } = await previousDevice({ drafts: [newer], problems: [conflict] });
    const device = await startClient('http://127.0.0.1:9', { user, indexedDB, prefix, startOffline: true });
    try {
      expect(await device.data.loadDraft('reply:r-1')).toEqual(newer);
      const drafts = (await device.data.exportMyData()).drafts;
      expect(drafts.map((d) => d.key).sort()).toEqual(['reply:r-1', 'topic:new']);
      const problems = await until(device.data.syncProblems$(), (list) => list.length === 2);
      expect(problems.map((p) => p.id)).toEqual(['p-conflict', 'p-rejected']);
    } finally {
      await device.close();
    }
    expectMoved(await collectionsLeft(indexedDB, prefix));
  });
});
