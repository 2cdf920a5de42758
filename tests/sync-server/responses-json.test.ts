// A page of roots or replies is the JSON SQLite writes itself (store/sqlite/response-json.ts); one
// response is the server's own JSON.stringify of toResponse. The two must be the same text, byte for
// byte, whatever a response holds: a live or a deleted quote, citations in their order, many earlier
// texts (the first and the last VERSIONS_SHOWN), a moderator's removal, the reader's own agree or
// disagree, characters JSON escapes. On PostgreSQL (the server-pg lane) the page is the rows
// serialised and the same comparison holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from '../../shared/types.js';
import { EDIT_GRACE_MS, VERSIONS_SHOWN } from '../../shared/rules/edit-history.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('a page of responses is the same text as each response read alone', () => {
  let server: TestServer;
  let now = new Date('2026-06-01T00:00:00.000Z');
  let ada: TestUser;
  let bob: TestUser;
  let mod: TestUser;
  let topicId: string;
  let parentId: string;
  let removedId: string;
  let fewEditsId: string;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const later = () => {
    now = new Date(now.getTime() + EDIT_GRACE_MS + 60_000);
  };

  /** The page's text, and the text the same responses make read one by one, joined as an array. */
  async function pageAndSingles(path: string, reader?: TestUser) {
    const page = await as(reader).get<Response[]>(path);
    expect(page.status, page.text).toBe(200);
    const singles: string[] = [];
    for (const item of page.body) singles.push((await as(reader).get(`/responses/${item.id}`)).text);
    return { page, joined: `[${singles.join(',')}]` };
  }

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now });
    [ada, bob, mod] = await Promise.all([createTestUser('Ada "the" \\ Lovelace'), createTestUser('Bob'), createTestUser('Mod')]);
    await setTestUserRole(mod, 'moderator');
    expect((await as(mod).get('/users/preferences')).status).toBe(200);

    const topic = await makeTopic(as(ada));
    topicId = topic.id;
    const plain = await makeResponse(as(ada), { topic_id: topicId, content: 'Plain words' });
    const odd = await makeResponse(as(bob), {
      topic_id: topicId,
      type: 'against',
      content: 'Tabs\tand lines\nquotes " \\ backslash, emoji 😀, a line separator \u2028 and ü',
      sources: [
        { url: 'https://example.org/b', name: 'Second "named"', description: 'Why\nit matters' },
        { url: 'https://example.org/a' },
        { url: 'https://example.org/c', name: 'Third' },
      ],
    });
    await makeResponse(as(bob), { topic_id: topicId, content: 'Quoting the plain one', quoted_response_id: plain.id });
    const quotedThenGone = await makeResponse(as(ada), { topic_id: topicId, content: 'Soon deleted' });
    await makeResponse(as(bob), { topic_id: topicId, content: 'Quoting one that goes', quoted_response_id: quotedThenGone.id });
    expect((await as(ada).del(`/responses/${quotedThenGone.id}`)).status).toBe(204);

    const edited = await makeResponse(as(ada), { topic_id: topicId, content: 'Version 0' });
    for (let n = 1; n <= VERSIONS_SHOWN + 3; n++) {
      later();
      const res = await as(ada).put(`/responses/${edited.id}`, { content: `Version ${n}` });
      expect(res.status, res.text).toBe(200);
    }
    const fewEdits = await makeResponse(as(bob), { topic_id: topicId, content: 'Once' });
    later();
    expect((await as(bob).put(`/responses/${fewEdits.id}`, { content: 'Twice' })).status).toBe(200);

    const removed = await makeResponse(as(bob), { topic_id: topicId, content: 'Off topic' });
    later();
    expect((await as(bob).put(`/responses/${removed.id}`, { content: 'Still off topic' })).status).toBe(200);
    removedId = removed.id;
    fewEditsId = fewEdits.id;
    const removal = await as(mod).post('/moderation/actions', {
      action: 'remove',
      target_type: 'response',
      target_id: removed.id,
      reason: 'Rule 1',
    });
    expect(removal.status, removal.text).toBe(200);

    expect((await as(ada).post('/upvotes', { target_type: 'response', target_id: odd.id })).status).toBeLessThan(300);
    expect((await as(ada).post('/downvotes', { target_type: 'response', target_id: plain.id })).status).toBeLessThan(300);

    parentId = odd.id;
    await makeResponse(as(ada), { parent_response_id: odd.id, content: 'A reply', quoted_response_id: plain.id });
    await makeResponse(as(bob), { parent_response_id: odd.id, content: 'Another reply' });
  });
  afterAll(() => server.stop());

  it('roots, signed out and signed in (with the reader’s own agree and disagree)', async () => {
    for (const reader of [undefined, ada, bob]) {
      const { page, joined } = await pageAndSingles(`/responses?topic_id=${topicId}`, reader);
      expect(page.body.length).toBe(7);
      expect(page.text).toBe(joined);
    }
    const mine = (await as(ada).get<Response[]>(`/responses?topic_id=${topicId}`)).body;
    expect(mine.filter((item) => item.user_has_upvoted)).toHaveLength(1);
    expect(mine.filter((item) => item.user_has_downvoted)).toHaveLength(1);
    const edited = mine.find((item) => item.content === `Version ${VERSIONS_SHOWN + 3}`)!;
    expect(edited.versions.map((version) => version.content)).toEqual([
      'Version 0',
      ...Array.from({ length: VERSIONS_SHOWN }, (_, i) => `Version ${i + 3}`),
    ]);
    const removed = mine.find((item) => item.id === removedId)!;
    expect(removed.moderation).not.toBeNull();
    expect(removed.versions).toEqual([]);
    expect(mine.find((item) => item.id === fewEditsId)!.versions).toHaveLength(1);
  });

  it('replies, and pages of every size with their cursors', async () => {
    const replies = await pageAndSingles(`/responses?parent_id=${parentId}`, bob);
    expect(replies.page.body).toHaveLength(2);
    expect(replies.page.text).toBe(replies.joined);

    const whole = (await as(bob).get<Response[]>(`/responses?topic_id=${topicId}`)).body.map((item) => item.id);
    for (const size of [1, 3, 6, 7, 8]) {
      const seen: string[] = [];
      let path: string | null = `/responses?topic_id=${topicId}&limit=${size}`;
      while (path) {
        const res: Awaited<ReturnType<ReturnType<typeof as>['get']>> = await as(bob).get<Response[]>(path);
        expect(res.status, res.text).toBe(200);
        seen.push(...(res.body as Response[]).map((item) => item.id));
        const link = res.headers.get('link');
        path = link ? link.slice(link.indexOf('</api') + 5, link.indexOf('>')) : null;
      }
      expect(seen).toEqual(whole);
    }
  });
});
