// A sync pull page of responses reads the citations of the whole page in one
// query (no query per response), and answers exactly what reading them one by one answered. The
// pull's text as the route sends it (on SQLite, the JSON SQLite writes: store/sqlite/response-json.ts)
// is those documents' JSON, byte for byte, for one topic and for several in one call.
import { describe, expect, it, vi } from 'vitest';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse, deleteResponse, updateResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { responseDoc } from '../../sync-server/src/sync/collections/index.js';
import { pull, pullResponsesOfTopicsText, pullText } from '../../sync-server/src/sync/pull.js';
import { openTestStore } from '../fixtures/test-db.js';
import { EDIT_GRACE_MS, VERSIONS_SHOWN } from '../../shared/rules/edit-history.js';

const ada = { uid: 'ada', name: 'Ada "the" \\ Lovelace', email: null };

async function setup() {
  const testStore = await openTestStore();
  const store = testStore.store;
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  const ctx: DomainContext = {
    store,
    clock: () => new Date((ms += 1000)),
    newId: () => `id-${String(++ids).padStart(4, '0')}`,
    changes: createChangeFeed(),
  };
  await rememberUser(ctx, ada);
  const topic = await createTopic(ctx, ada, { title: 'Cited', categories: ['Science'] });
  const other = await createTopic(ctx, ada, { title: 'Also cited', categories: ['Science'] });
  const made: string[] = [];
  for (let i = 0; i < 30; i++) {
    const response = await createResponse(ctx, ada, {
      topic_id: i % 5 === 4 ? other.id : topic.id,
      parent_response_id: i % 5 === 1 ? made[i - 1] : null,
      type: (['for', 'against', 'neutral'] as const)[i % 3]!,
      content: `Argument ${i}`,
      sources:
        i % 3 === 0
          ? []
          : [
              { url: `https://example.org/${i}`, name: `Source ${i}`, description: i % 2 ? `Why ${i}` : undefined },
              { url: 'https://example.org/shared' },
              ...(i % 4 === 0 ? [{ url: 'https://example.org/third', name: 'Third' }] : []),
            ],
    });
    made.push(response.id);
  }
  // An edit that reorders the citations, and deleted responses (tombstones, which carry no sources).
  await updateResponse(ctx, ada, made[2]!, {
    content: 'Argument 2 edited',
    sources: [{ url: 'https://example.org/shared' }, { url: 'https://example.org/2' }],
  });
  await deleteResponse(ctx, ada, made[7]!);
  await deleteResponse(ctx, ada, made[10]!);
  // Earlier texts: more than are shown (the first and the last VERSIONS_SHOWN), and a moderated
  // response's, which a document does not carry.
  for (let n = 1; n <= VERSIONS_SHOWN + 2; n++) {
    ms += EDIT_GRACE_MS;
    await updateResponse(ctx, ada, made[5]!, { content: `Argument 5, edit ${n}`, sources: [] });
  }
  ms += EDIT_GRACE_MS;
  await updateResponse(ctx, ada, made[3]!, { content: 'Argument 3, edited', sources: [] });
  await testStore.db.run("UPDATE responses SET moderation = 'hidden', moderation_reason = 'Reported' WHERE id = ?", made[3]!);
  return { store, testStore, ctx, topicId: topic.id, otherId: other.id };
}

describe('sync pull of responses reads the sources of a page in one query', () => {
  it('no query per response, and the same documents as reading them one by one', async () => {
    const { store, testStore, ctx, topicId } = await setup();
    const one = vi.spyOn(store.sources, 'forResponse');
    const many = vi.spyOn(store.sources, 'forResponses');

    const pages: unknown[] = [];
    let checkpoint = { id: '', seq: 0 };
    for (;;) {
      const page = await pull(ctx, 'responses', { user: null, topicId }, checkpoint, 7);
      if (page.documents.length === 0) break;
      pages.push(page);
      checkpoint = page.checkpoint;
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(one).not.toHaveBeenCalled();
    // One read per page: the pages of one topic (and the empty one that ends them).
    expect(many).toHaveBeenCalledTimes(pages.length + 1);

    expect(JSON.stringify(pages.map((page) => (page as { documents: unknown }).documents))).toBe(
      JSON.stringify(await referencePages(store, topicId)),
    );
    await testStore.close();
  });

  it("the pull's text is the documents' JSON, byte for byte, for a topic and for several at once", async () => {
    const { store, testStore, ctx, topicId, otherId } = await setup();
    const texts: string[] = [];
    let checkpoint = { id: '', seq: 0 };
    for (;;) {
      const page = await pullText(ctx, 'responses', { user: null, topicId }, checkpoint, 7);
      expect(page.count).toBe((JSON.parse(Buffer.from(page.documents).toString()) as unknown[]).length);
      if (page.count === 0) {
        expect(page.checkpoint).toEqual(checkpoint);
        break;
      }
      texts.push(Buffer.from(page.documents).toString());
      checkpoint = page.checkpoint;
    }
    const reference = await referencePages(store, topicId);
    expect(texts).toEqual(reference.map((docs) => JSON.stringify(docs)));
    const last = reference.flat().at(-1)!;
    expect(checkpoint).toEqual({ id: last.id, seq: last.seq });

    const from = { topics: { [topicId]: { id: '', seq: 0 }, [otherId]: { id: '', seq: 0 } } };
    const several = await pullResponsesOfTopicsText(ctx, from, 1000);
    const byTopic = await Promise.all([otherId, topicId].sort().map((id) => referencePages(store, id)));
    const expected = byTopic.flatMap((docs) => docs.flat());
    expect(Buffer.from(several.documents).toString()).toBe(JSON.stringify(expected));
    expect(several.count).toBe(expected.length);

    // The page really carries several cited sources, in their order, and tombstones carry none.
    const docs = JSON.parse(Buffer.from(several.documents).toString()) as Array<{
      content?: string;
      sources?: Array<{ url: string }>;
      versions?: unknown[];
      _deleted: boolean;
    }>;
    // Three tombstones: response 7, and response 10 with its reply 11 (a delete takes the subtree).
    expect(docs.filter((doc) => doc._deleted)).toHaveLength(3);
    expect(docs.filter((doc) => doc._deleted).every((doc) => doc.sources === undefined)).toBe(true);
    const edited = docs.find((doc) => doc.content === 'Argument 2 edited')!;
    expect(edited.sources!.map((s) => s.url)).toEqual(['https://example.org/shared', 'https://example.org/2']);
    const eight = docs.find((doc) => doc.content === 'Argument 8')!;
    expect(eight.sources!.map((s) => s.url)).toEqual(['https://example.org/8', 'https://example.org/shared', 'https://example.org/third']);
    const versions = (content: string) => docs.find((doc) => doc.content === content)!.versions;
    expect(versions(`Argument 5, edit ${VERSIONS_SHOWN + 2}`)).toHaveLength(VERSIONS_SHOWN + 1);
    expect(versions('Argument 3, edited')).toEqual([]);

    // Only as many as asked, over the topics in id order.
    const three = await pullResponsesOfTopicsText(ctx, from, 3);
    expect(Buffer.from(three.documents).toString()).toBe(JSON.stringify(expected.slice(0, 3)));
    await testStore.close();
  });
});

/** The reference: each row's sources read on its own (what the pull did before), in pages of 7. */
async function referencePages(store: DomainContext['store'], topicId: string) {
  const docs = [];
  let from = { id: '', seq: 0 };
  for (;;) {
    const rows = await store.responses.changesSince(topicId, from, 7, null);
    if (rows.length === 0) break;
    docs.push(await Promise.all(rows.map((row) => responseDoc(store, row))));
    const last = rows[rows.length - 1]!;
    from = { id: last.id, seq: last.seq };
  }
  return docs;
}
