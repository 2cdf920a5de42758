// A topic's live responses kept from the stored changes (app/src/data/topic-docs.ts): always what
// RxDB's sorted query of the topic gives, whatever mix of local writes, pulled writes, edits and
// deletes reaches the collection; a pull's batches handed on together, a local change at once.
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Subscription } from 'rxjs';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { createRevision, now } from 'rxdb/plugins/utils';
import type { RxDocumentData } from 'rxdb';
import { openPublicDb, type PublicDb } from '../../app/src/data/db.js';
import type { ResponseDocType } from '../../app/src/data/collections/response.schema.js';
import { PULL_WRITE } from '../../app/src/data/pull-guard.js';
import { pulledEmitMs, topicDocs$ } from '../../app/src/data/topic-docs.js';
import { localResponse } from '../fixtures/local-docs.js';

let db: PublicDb | null = null;
const subscriptions: Subscription[] = [];

afterEach(async () => {
  for (const subscription of subscriptions.splice(0)) subscription.unsubscribe();
  await db?.close();
  db = null;
});

async function openDb(): Promise<PublicDb> {
  db = await openPublicDb({
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    prefix: `topic-docs-${Math.random().toString(36).slice(2)}`,
    devMode: true,
    multiInstance: false,
    duplicateInstances: 'close',
  });
  return db;
}

const response = (id: string, topicId: string, at: number, content = `Argument ${id}`): ResponseDocType =>
  localResponse(id, {
    topic_id: topicId,
    content,
    creator_uid: 'author',
    username: 'Author',
    created_at: new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(),
    seq: at + 1,
  });

/** Writes as a pull does: straight to the storage, with the downstream's context. */
async function pulled(database: PublicDb, docs: ResponseDocType[], deleted = false) {
  const instance = database.responses.storageInstance;
  const stored = await instance.findDocumentsById(
    docs.map((doc) => doc.id),
    true,
  );
  const previous = new Map(stored.map((doc) => [doc.id, doc]));
  const rows = docs.map((doc) => {
    const before = previous.get(doc.id);
    const document: RxDocumentData<ResponseDocType> = {
      ...doc,
      _deleted: deleted,
      _attachments: {},
      _meta: { lwt: now() },
      _rev: createRevision(database.token, before),
    };
    return { document, previous: before };
  });
  const result = await instance.bulkWrite(rows, `${PULL_WRITE}test`);
  expect(result.error).toEqual([]);
}

/** What RxDB's own sorted query of the topic holds now: ids and contents. */
async function queried(database: PublicDb, topicId: string) {
  const docs = await database.responses.find({ selector: { topic_id: topicId }, sort: [{ created_at: 'asc' }, { id: 'asc' }] }).exec();
  return docs.map((doc) => `${doc.id}:${doc.content}`);
}

const shown = (docs: readonly ResponseDocType[]) => docs.map((doc) => `${doc.id}:${doc.content}`);

function follow(database: PublicDb, topicId: string) {
  const emissions: (readonly ResponseDocType[])[] = [];
  subscriptions.push(topicDocs$(database.responses, topicId).subscribe((docs) => emissions.push(docs)));
  return emissions;
}

const settled = async (database: PublicDb, topicId: string, emissions: (readonly ResponseDocType[])[]) => {
  const expected = await queried(database, topicId);
  for (let wait = 0; wait < 200 && shown(emissions.at(-1) ?? []).join() !== expected.join(); wait++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return expected;
};

describe('a topic’s live responses', () => {
  it('holds what the sorted query holds through inserts, pulls, edits, deletes and other topics’ changes', async () => {
    const database = await openDb();
    await database.responses.bulkInsert([response('b', 't', 5), response('a', 't', 5), response('x', 'other', 1)]);
    const emissions = follow(database, 't');
    expect(shown((await settledFirst(emissions))!)).toEqual(['a:Argument a', 'b:Argument b']);

    // A seeded, repeatable mix: pulled batches out of time order, local inserts, edits, deletes.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const ids: string[] = ['a', 'b'];
    for (let round = 0; round < 12; round++) {
      const batch = Array.from({ length: 15 }, (_, i) => response(`p${round}-${i}`, 't', Math.floor(random() * 100)));
      await pulled(database, batch);
      ids.push(...batch.map((doc) => doc.id));
      await database.responses.insert(response(`l${round}`, 't', Math.floor(random() * 100)));
      ids.push(`l${round}`);
      const edited = ids[Math.floor(random() * ids.length)]!;
      const doc = await database.responses.findOne(edited).exec();
      if (doc) await doc.incrementalPatch({ content: `Edited in round ${round}` });
      const gone = ids[Math.floor(random() * ids.length)]!;
      const stored = await database.responses.findOne(gone).exec();
      if (stored && round % 2 === 0) await stored.remove();
      else if (stored) await pulled(database, [stored.toMutableJSON()], true);
      await database.responses.insert(response(`o${round}`, 'other', round));
    }
    const expected = await settled(database, 't', emissions);
    expect(expected.length).toBeGreaterThan(150);
    expect(shown(emissions.at(-1)!)).toEqual(expected);
    expect(emissions.at(-1)!.some((doc) => doc.topic_id !== 't')).toBe(false);
  });

  it('applies changes stored while its first read runs', async () => {
    const database = await openDb();
    await database.responses.bulkInsert(Array.from({ length: 300 }, (_, i) => response(`r${i}`, 't', i)));
    const emissions = follow(database, 't');
    // Written before the first read has answered.
    await Promise.all([
      database.responses.insert(response('late', 't', 1_000)),
      pulled(database, [response('r5', 't', 5, 'Changed by a pull')]),
    ]);
    const expected = await settled(database, 't', emissions);
    expect(shown(emissions.at(-1)!)).toEqual(expected);
    expect(expected).toContain('r5:Changed by a pull');
    expect(expected.at(-1)).toBe('late:Argument late');
  });

  it('hands a pull’s batches on together, and a local change at once', async () => {
    expect([pulledEmitMs(10), pulledEmitMs(2_000), pulledEmitMs(23_000)]).toEqual([1, 200, 2_000]);
    const database = await openDb();
    await database.responses.bulkInsert(Array.from({ length: 50 }, (_, i) => response(`r${i}`, 't', i)));
    // A wait after pulled batches longer than this test, so that what is held is plain to see.
    const emissions: (readonly ResponseDocType[])[] = [];
    subscriptions.push(topicDocs$(database.responses, 't', () => 60_000).subscribe((docs) => emissions.push(docs)));
    await settledFirst(emissions);
    expect(emissions).toHaveLength(1);

    for (let batch = 0; batch < 5; batch++) {
      await pulled(
        database,
        Array.from({ length: 20 }, (_, i) => response(`n${batch}-${i}`, 't', 100 + batch * 20 + i)),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(emissions).toHaveLength(1);

    // The user's own post is handed on as soon as it is stored, with the pulled batches held so far.
    await database.responses.insert(response('mine', 't', 9_999, 'My own argument'));
    for (let wait = 0; wait < 100 && emissions.length === 1; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(emissions).toHaveLength(2);
    expect(shown(emissions[1]!)).toEqual(await queried(database, 't'));
    expect(emissions[1]!).toHaveLength(151);
  });
});

async function settledFirst(emissions: (readonly ResponseDocType[])[]) {
  for (let wait = 0; wait < 200 && emissions.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
  return emissions.at(-1);
}
