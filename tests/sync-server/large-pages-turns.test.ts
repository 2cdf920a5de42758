// Large pages: a sync pull that asks for more than it answers reads once; a pull of a few hundred reads
// in sub-pages with a turn of the event loop between; a page of roots is one short read of the JSON
// SQLite makes; mappings follow their cursor; the answers are the ones a single read gives, byte for
// byte; and only a few large pages are in work at once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createResponse, rootResponses } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { COLLECTIONS } from '../../sync-server/src/sync/collections/index.js';
import { pull } from '../../sync-server/src/sync/pull.js';
import { fewLargePagesAtOnce, fewSearchesAtOnce, LARGE_PAGES_AT_ONCE, SEARCHES_AT_ONCE } from '../../sync-server/src/domain/turns.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { PULL_ANSWER_MAX } from '../../shared/sync-protocol.js';
import { RESPONSES_ANSWER_MAX } from '../../sync-server/src/routes/responses.js';

const ada = { uid: 'ada-turns', name: 'Ada', email: null };
/** More roots than a page of 1,000 holds, and more than one sub-page of mappings. */
const ROOTS = 1_100;
/** A smaller topic: a pull of it reads every response in three sub-pages. */
const SMALL = 450;

describe('large pages give the event loop turns', () => {
  let server: TestServer;
  let bigId: string;
  let smallId: string;
  let smallIds: string[];
  /** The big topic's pairs as made, in the pages' order (one instant: by id). */
  let pairs: { id: string; parent_response_id: string | null }[];

  beforeAll(async () => {
    // Every response in the same instant: the pages' id tie-break is what the sub-pages follow.
    const now = new Date('2026-05-01T00:00:00.000Z');
    server = await startTestServer({ clock: () => now });
    await rememberUser(server.ctx, ada);
    bigId = (await createTopic(server.ctx, ada, { title: 'A very long debate', categories: ['Science'] })).id;
    smallId = (await createTopic(server.ctx, ada, { title: 'A shorter debate', categories: ['Science'] })).id;
    let parent: string | null = null;
    pairs = [];
    for (let i = 0; i < ROOTS; i++) {
      const made = await createResponse(server.ctx, ada, {
        topic_id: bigId,
        content: `Root ${i}`,
        type: (['for', 'against', 'neutral'] as const)[i % 3]!,
        ...(i % 4 === 0 ? { sources: [{ url: `https://example.org/${i}`, name: `Source ${i}` }] } : {}),
      });
      parent ??= made.id;
      pairs.push({ id: made.id, parent_response_id: null });
    }
    for (let i = 0; i < 20; i++) {
      const made = await createResponse(server.ctx, ada, { parent_response_id: parent!, content: `Reply ${i}`, type: 'for' });
      pairs.push({ id: made.id, parent_response_id: parent });
    }
    pairs.sort((a, b) => (a.id < b.id ? -1 : 1));
    smallIds = [];
    for (let i = 0; i < SMALL; i++)
      smallIds.push((await createResponse(server.ctx, ada, { topic_id: smallId, content: `Point ${i}`, type: 'for' })).id);
  });
  afterAll(() => server.stop());

  it('a pull that asks for 1,000 answers PULL_ANSWER_MAX in one read, the bytes that read gives', async () => {
    const responses = server.ctx.store.responses;
    // SQLite writes the documents' JSON (changesSinceJson); PostgreSQL answers null there and the rows are read.
    const made = vi.spyOn(responses, 'changesSinceJson');
    const spy = vi.spyOn(responses, 'changesSince');
    try {
      const res = await fetch(`${server.url}/api/sync/responses/pull?topic_id=${bigId}&limit=1000`);
      expect(made).toHaveBeenCalledTimes(1);
      expect(spy).toHaveBeenCalledTimes(server.engine === 'sqlite' ? 0 : 1);
      const documents = await COLLECTIONS.responses.pull(server.ctx, { user: null, topicId: bigId }, { id: '', seq: 0 }, PULL_ANSWER_MAX);
      expect(documents).toHaveLength(PULL_ANSWER_MAX);
      const last = documents[documents.length - 1]!;
      expect(await res.text()).toBe(JSON.stringify({ documents, checkpoint: { id: last.id, seq: last.seq } }));
    } finally {
      made.mockRestore();
      spy.mockRestore();
    }
  });

  it('a first page of roots is one read of the JSON SQLite makes, the bytes the rows give serialised', async () => {
    // Not read in turns: SQLite writes the page's JSON in one statement of about a millisecond
    // (store/sqlite/response-json.ts; 4.7 ms for 1,000), where reading and serialising 1,000 rows took 16 ms.
    const responses = server.ctx.store.responses;
    const spy = vi.spyOn(responses, 'rootsPageJson');
    try {
      const res = await fetch(`${server.url}/api/responses?topic_id=${bigId}`);
      expect(res.status).toBe(200);
      const roots = await rootResponses(server.ctx, bigId, null);
      expect(roots).toHaveLength(ROOTS);
      expect(await res.text()).toBe(JSON.stringify(roots.slice(0, RESPONSES_ANSWER_MAX)));
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('the mappings are the pairs made, in order, and their cursor goes on from the last', async () => {
    const all = pairs;
    expect(all).toHaveLength(ROOTS + 20);
    const whole = await fetch(`${server.url}/api/responses/mappings?topic_id=${bigId}`);
    expect(await whole.text()).toBe(JSON.stringify(all));
    expect(whole.headers.get('x-next-cursor')).toBeNull();
    const first = await fetch(`${server.url}/api/responses/mappings?topic_id=${bigId}&limit=1050`);
    expect(await first.text()).toBe(JSON.stringify(all.slice(0, 1050)));
    const cursor = first.headers.get('x-next-cursor')!;
    const position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    expect(position[1]).toBe(all[1049]!.id);
    const rest = await fetch(`${server.url}/api/responses/mappings?topic_id=${bigId}&cursor=${cursor}`);
    expect(await rest.text()).toBe(JSON.stringify(all.slice(1050)));
  });

  it('a pull that asks for fewer than a sub-page still reads once', async () => {
    const responses = server.ctx.store.responses;
    const spy = vi.spyOn(responses, 'changesSince');
    try {
      const page = await pull(server.ctx, 'responses', { user: null, topicId: smallId }, { id: '', seq: 0 }, 50);
      expect(page.documents).toHaveLength(50);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('only a few large pages are in work at once; the next starts in the turn after one ends, first come first served', async () => {
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const pages = Array.from({ length: LARGE_PAGES_AT_ONCE + 2 }, (_, i) =>
      fewLargePagesAtOnce(
        () =>
          new Promise<number>((resolve) => {
            started.push(i);
            finish[i] = () => resolve(i);
          }),
      ),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual(Array.from({ length: LARGE_PAGES_AT_ONCE }, (_, i) => i));
    finish[1]!();
    // Handed on when one ends, and made in the loop's next turn: I/O and timers get in between.
    await settle();
    expect(started).toEqual(Array.from({ length: LARGE_PAGES_AT_ONCE }, (_, i) => i));
    await settle();
    await settle();
    expect(started).toEqual([...Array.from({ length: LARGE_PAGES_AT_ONCE }, (_, i) => i), LARGE_PAGES_AT_ONCE]);
    for (let i = 0; i < pages.length; i++) {
      await settle();
      finish[i]?.();
    }
    expect(await Promise.all(pages)).toEqual(pages.map((_, i) => i));
    // A page that fails gives its place back too.
    await expect(fewLargePagesAtOnce(() => Promise.reject(new Error('broken page')))).rejects.toThrow('broken page');
    expect(await Promise.all(Array.from({ length: LARGE_PAGES_AT_ONCE }, (_, i) => fewLargePagesAtOnce(async () => i)))).toEqual(
      Array.from({ length: LARGE_PAGES_AT_ONCE }, (_, i) => i),
    );
  });
  it('a title search and a plain list page answer while every place at the gate is taken', async () => {
    // A search is no large page (a few tenths of a millisecond on SQLite's title index): it does not
    // wait behind the pages at their gate.
    const release: Array<() => void> = [];
    const held = Array.from({ length: LARGE_PAGES_AT_ONCE }, () =>
      fewLargePagesAtOnce(() => new Promise<void>((resolve) => release.push(resolve))),
    );
    const searched = await fetch(`${server.url}/api/topics?search=debate`);
    expect(searched.status).toBe(200);
    expect(((await searched.json()) as { title: string }[]).map((topic) => topic.title).sort()).toEqual([
      'A shorter debate',
      'A very long debate',
    ]);
    const listed = await fetch(`${server.url}/api/topics?sort=new`);
    expect(listed.status).toBe(200);
    for (const free of release) free();
    await Promise.all(held);
  });
  it('title searches wait at a gate of their own, SEARCHES_AT_ONCE at a time', async () => {
    const release: Array<() => void> = [];
    const held = Array.from({ length: SEARCHES_AT_ONCE }, () =>
      fewSearchesAtOnce(() => new Promise<void>((resolve) => release.push(resolve))),
    );
    let searchDone = false;
    const searched = fetch(`${server.url}/api/topics?search=shorter`).then(async (res) => {
      searchDone = true;
      return (await res.json()) as { title: string }[];
    });
    // A plain list page does not go through it.
    expect((await fetch(`${server.url}/api/topics?sort=new`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(searchDone).toBe(false);
    for (const free of release) free();
    await Promise.all(held);
    expect((await searched).map((topic) => topic.title)).toEqual(['A shorter debate']);
  });
});
