// A sync pull of topics as the route sends it (pullText; on SQLite the JSON SQLite writes:
// store/sqlite/topic-json.ts) is the documents' JSON, byte for byte: live topics with odd titles,
// a locked and a moderated one, an opinion groups summary (JSON text carried as a string), a
// deleted one's tombstone, an author's name that JSON escapes; page by page, with the checkpoint each
// page ends at and the checkpoint kept when nothing follows. On PostgreSQL the rows are stringified.
import { describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createTopic, deleteTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { topicDoc } from '../../sync-server/src/sync/collections/topics.js';
import { pullText } from '../../sync-server/src/sync/pull.js';
import { openTestStore } from '../fixtures/test-db.js';

describe('a sync pull of topics as text', () => {
  it("is the documents' JSON, byte for byte, page by page", async () => {
    const testStore = await openTestStore();
    const { store, db } = testStore;
    let ids = 0;
    let ms = Date.UTC(2026, 0, 1);
    const ctx: DomainContext = {
      store,
      clock: () => new Date((ms += 1000)),
      newId: () => `id-${String(++ids).padStart(4, '0')}`,
      changes: createChangeFeed(),
    };
    const ada = { uid: 'ada', name: 'Ada "the" \\ Lovelace', email: null };
    await rememberUser(ctx, ada);
    const titles = ['Plain title', 'Tabs\tand "quotes" \\ and emoji 😀', 'Ünïcödé and a line separator \u2028 here'];
    const made: string[] = [];
    for (let i = 0; i < 17; i++) {
      made.push((await createTopic(ctx, ada, { title: `${titles[i % titles.length]} ${i}`, categories: ['Science'] })).id);
    }
    await deleteTopic(ctx, ada, made[4]!);
    await db.run('UPDATE topics SET locked = 1 WHERE id = ?', made[5]!);
    await db.run("UPDATE topics SET moderation = 'removed', moderation_reason = 'Rule \"2\"' WHERE id = ?", made[6]!);
    await db.run(
      'UPDATE topics SET opinion_groups = ? WHERE id = ?',
      JSON.stringify({ groups: [{ size: 3 }], note: 'a "quote"' }),
      made[7]!,
    );

    // The reference: the rows as documents, stringified, in pages of 5.
    const reference: string[] = [];
    let from = { id: '', seq: 0 };
    for (;;) {
      const rows = await store.topics.changesSince(from, 5, null);
      if (rows.length === 0) break;
      reference.push(JSON.stringify(rows.map(topicDoc)));
      from = { id: rows.at(-1)!.id, seq: rows.at(-1)!.seq };
    }
    expect(reference.length).toBe(4);

    const texts: string[] = [];
    let checkpoint = { id: '', seq: 0 };
    for (;;) {
      const page = await pullText(ctx, 'topics', { user: null }, checkpoint, 5);
      if (page.count === 0) {
        expect(page.checkpoint).toEqual(checkpoint);
        expect(Buffer.from(page.documents).toString()).toBe('[]');
        break;
      }
      const text = Buffer.from(page.documents).toString();
      texts.push(text);
      const docs = JSON.parse(text) as Array<{ id: string; seq: number }>;
      expect(page.count).toBe(docs.length);
      expect(page.checkpoint).toEqual({ id: docs.at(-1)!.id, seq: docs.at(-1)!.seq });
      checkpoint = page.checkpoint;
    }
    expect(texts).toEqual(reference);

    const docs = texts.flatMap((text) => JSON.parse(text) as Array<Record<string, unknown>>);
    expect(docs.find((doc) => doc.id === made[4])).toEqual({ id: made[4], seq: expect.any(Number), _deleted: true });
    expect(docs.find((doc) => doc.id === made[5])!.locked).toBe(true);
    expect(docs.find((doc) => doc.id === made[7])!.opinion_groups).toBe(JSON.stringify({ groups: [{ size: 3 }], note: 'a "quote"' }));
    expect(docs.find((doc) => doc.id === made[8])!.username).toBe(ada.name);
    await testStore.close();
  });
});
