// No list answer is unbounded, none is cut silently. GET
// /api/responses keeps its plain array and pages with `limit` and an opaque
// `cursor`: a call carries at most RESPONSES_ANSWER_MAX (200), whatever `limit` asks, and says when more follow
// (X-Next-Cursor, Link rel="next"); following the cursors gives every item once, in
// order. Sync pull refuses a limit over its cap, and answers at most PULL_ANSWER_MAX documents
// whatever it asks: following the checkpoints from a full answer to a short one gives every document once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PULL_LIMIT, PULL_ANSWER_MAX, type SyncCheckpoint } from '../../shared/sync-protocol.js';
import type { Response } from '../../shared/types.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { MAPPINGS_MAX_LIMIT, RESPONSES_ANSWER_MAX, RESPONSES_MAX_LIMIT } from '../../sync-server/src/routes/responses.js';
import { apiClient, type ApiResult } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const ROOTS = RESPONSES_ANSWER_MAX * 2 + 50;
const REPLIES = 25;

describe('paging of response lists', () => {
  let server: TestServer;
  let ada: TestUser;
  let topicId: string;
  let parentId: string;
  /** Every root's id, in the list's order (oldest first, then id). */
  let rootIds: string[];
  const api = () => apiClient(server.url, ada.token);

  beforeAll(async () => {
    // Every response made in the same few milliseconds: the order's id tie-break is what pages by.
    const now = new Date('2026-04-01T00:00:00.000Z');
    server = await startTestServer({ clock: () => now });
    ada = await createTestUser('Ada');
    const actor = { uid: ada.uid, name: 'Ada', email: ada.email };
    await rememberUser(server.ctx, actor);
    topicId = (await createTopic(server.ctx, actor, { title: 'A very long debate', categories: ['Science'] })).id;
    const made: Response[] = [];
    for (let i = 0; i < ROOTS; i++)
      made.push(await createResponse(server.ctx, actor, { topic_id: topicId, content: `Root ${i}`, type: 'for' }));
    parentId = made[0]!.id;
    for (let i = 0; i < REPLIES; i++)
      await createResponse(server.ctx, actor, { parent_response_id: parentId, content: `Reply ${i}`, type: 'against' });
    rootIds = made.map((r) => r.id).sort();
  });
  afterAll(() => server.stop());

  /** Follows X-Next-Cursor from `first` to the end, checking Link says the same. */
  async function follow(first: string): Promise<{ pages: ApiResult<Response[]>[]; ids: string[] }> {
    const pages: ApiResult<Response[]>[] = [];
    let path: string | null = first;
    while (path) {
      const res: ApiResult<Response[]> = await api().get<Response[]>(path);
      expect(res.status).toBe(200);
      pages.push(res);
      const cursor = res.headers.get('x-next-cursor');
      const link = res.headers.get('link');
      if (!cursor) {
        expect(link).toBeNull();
        path = null;
        continue;
      }
      const next = /^<\/api(\/responses(?:\/mappings)?\?[^>]+)>; rel="next"$/.exec(link ?? '');
      expect(next).not.toBeNull();
      expect(new URL(`http://x${next![1]}`).searchParams.get('cursor')).toBe(cursor);
      path = next![1]!;
    }
    return { pages, ids: pages.flatMap((page) => page.body.map((r) => r.id)) };
  }

  it('the default call is a plain array of at most 200 and says that more follow', async () => {
    const res = await api().get<Response[]>(`/responses?topic_id=${topicId}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(RESPONSES_ANSWER_MAX);
    expect(res.body.map((r) => r.id)).toEqual(rootIds.slice(0, RESPONSES_ANSWER_MAX));
    expect(res.headers.get('x-next-cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it('a call that asks for more than 200 gets 200, and its next page asks the same', async () => {
    const res = await api().get<Response[]>(`/responses?topic_id=${topicId}&limit=${RESPONSES_MAX_LIMIT}`);
    expect(res.body.map((r) => r.id)).toEqual(rootIds.slice(0, RESPONSES_ANSWER_MAX));
    expect(res.headers.get('link')).toContain(`limit=${RESPONSES_MAX_LIMIT}&cursor=`);
  });

  it('following the cursors gives every root exactly once, in order', async () => {
    const { pages, ids } = await follow(`/responses?topic_id=${topicId}`);
    expect(pages.map((page) => page.body.length)).toEqual([RESPONSES_ANSWER_MAX, RESPONSES_ANSWER_MAX, 50]);
    expect(ids).toEqual(rootIds);
  });

  it('pages of any size add up to the same list', async () => {
    const { pages, ids } = await follow(`/responses?topic_id=${topicId}&limit=160`);
    expect(pages.map((page) => page.body.length)).toEqual([160, 160, 130]);
    expect(ids).toEqual(rootIds);
  });

  it('a last page that ends exactly on the limit says nothing more', async () => {
    const res = await api().get<Response[]>(`/responses?parent_id=${parentId}&limit=${REPLIES}`);
    expect(res.body).toHaveLength(REPLIES);
    expect(res.headers.get('x-next-cursor')).toBeNull();
    expect(res.headers.get('link')).toBeNull();
  });

  it('pages replies the same way', async () => {
    const { pages, ids } = await follow(`/responses?parent_id=${parentId}&limit=10`);
    expect(pages.map((page) => page.body.length)).toEqual([10, 10, 5]);
    expect(new Set(ids).size).toBe(REPLIES);
    expect(ids).toEqual([...ids].sort());
  });

  it('refuses a limit over the cap and a cursor it did not make', async () => {
    for (const query of ['limit=0', `limit=${RESPONSES_MAX_LIMIT + 1}`, 'limit=ten', 'cursor=not-a-cursor', 'cursor=WzFd']) {
      const res = await api().get(`/responses?topic_id=${topicId}&${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String), code: 'invalid-argument' });
    }
  });

  it('a topic with few responses answers as before: the whole list, no paging headers', async () => {
    const small = (await api().post('/topics', { title: 'Short', categories: ['Science'] })).body.id as string;
    await api().post('/responses', { topic_id: small, content: 'Only one', type: 'for' });
    const res = await api().get<Response[]>(`/responses?topic_id=${small}`);
    expect(res.body).toHaveLength(1);
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  it("mappings page the same way: SPEC's pairs, every one once, the default call capped", async () => {
    const whole = await api().get<{ id: string; parent_response_id: string | null }[]>(`/responses/mappings?topic_id=${topicId}`);
    expect(whole.status).toBe(200);
    expect(whole.body).toHaveLength(ROOTS + REPLIES); // under MAPPINGS_MAX_LIMIT: one answer, as before
    expect(Object.keys(whole.body[0]!).sort()).toEqual(['id', 'parent_response_id']);
    expect(whole.headers.get('x-next-cursor')).toBeNull();
    const { pages, ids } = await follow(`/responses/mappings?topic_id=${topicId}&limit=200`);
    expect(pages.map((page) => page.body.length)).toEqual([200, 200, 75]);
    expect(ids).toEqual(whole.body.map((m) => m.id));
    expect((await api().get(`/responses/mappings?topic_id=${topicId}&limit=${MAPPINGS_MAX_LIMIT + 1}`)).status).toBe(400);
  });

  it('sync pull caps its page size', async () => {
    const ok = await api().get(`/sync/responses/pull?topic_id=${topicId}&limit=${MAX_PULL_LIMIT}`);
    expect(ok.status).toBe(200);
    expect(ok.body.documents.length).toBeLessThanOrEqual(MAX_PULL_LIMIT);
    expect((await api().get(`/sync/responses/pull?topic_id=${topicId}&limit=${MAX_PULL_LIMIT + 1}`)).status).toBe(400);
    expect((await api().post('/sync/responses/pull', { checkpoint: { topics: {} }, limit: MAX_PULL_LIMIT + 1 })).status).toBe(400);
  });

  it('a sync pull answers at most PULL_ANSWER_MAX documents; from its checkpoint on, every one comes once', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let at: SyncCheckpoint = { id: '', seq: 0 };
    for (;;) {
      const res = await api().get<{ documents: { id: string }[]; checkpoint: SyncCheckpoint }>(
        `/sync/responses/pull?topic_id=${topicId}&id=${encodeURIComponent(at.id)}&seq=${at.seq}&limit=${MAX_PULL_LIMIT}`,
      );
      expect(res.status).toBe(200);
      sizes.push(res.body.documents.length);
      seen.push(...res.body.documents.map((d) => d.id));
      at = res.body.checkpoint;
      if (res.body.documents.length < PULL_ANSWER_MAX) break;
    }
    const all = ROOTS + REPLIES;
    expect(sizes.slice(0, -1).every((size) => size === PULL_ANSWER_MAX)).toBe(true);
    expect(sizes.at(-1)).toBe(all % PULL_ANSWER_MAX);
    expect(new Set(seen).size).toBe(all);
    // Several topics in one call: the same cap over all of them.
    const several = await api().post<{ documents: unknown[] }>('/sync/responses/pull', {
      checkpoint: { topics: { [topicId]: { id: '', seq: 0 } } },
      limit: MAX_PULL_LIMIT,
    });
    expect(several.body.documents).toHaveLength(PULL_ANSWER_MAX);
  });

  it('the sources list is paged too and says how many there are', async () => {
    const res = await api().get('/sources?limit=501');
    expect(res.status).toBe(400);
    const page = await api().get('/sources');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).not.toBeNull();
  });
});
