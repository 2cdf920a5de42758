// Big debates: a topic's roots, threads and the whole list come from one live tree per
// topic, read through the (topic_id, created_at) index; the first screen of roots may come first;
// a vote gives a new view to the voted response only, so the page re-renders that row alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseView } from '../../app/src/data/index.js';
import { FIRST_SCREEN_ROOTS } from '../../app/src/data/queries.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('the topic tree', () => {
  let server: TestServer;
  let ada: TestUser;
  let a: TestClient;
  let topicId: string;
  let rootIds: string[];
  let replyIds: string[];
  const ROOTS = FIRST_SCREEN_ROOTS + 5;

  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    const api = apiClient(server.url, ada.token);
    topicId = (await makeTopic(api, { title: 'A long debate' })).id;
    rootIds = [];
    for (let i = 0; i < ROOTS; i++) rootIds.push((await makeResponse(api, { topic_id: topicId, content: `Root ${i}` })).id);
    replyIds = [];
    for (let i = 0; i < 2; i++)
      replyIds.push((await makeResponse(api, { topic_id: topicId, parent_response_id: rootIds[0], content: `Reply ${i}` })).id);
    // The last root quotes a reply: the quote is joined from the same tree.
    rootIds.push((await makeResponse(api, { topic_id: topicId, content: 'Quoting', quoted_response_id: replyIds[1] })).id);
    a = await startClient(server.url, { user: ada });
    await a.data.openTopic(topicId);
    await until(a.data.topicResponses$(topicId), (list) => list.length === ROOTS + 3, 15_000);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await server.stop();
  });

  it('gives the roots and each thread oldest first, with the quote joined', async () => {
    const roots = await until(a.data.rootResponses$(topicId), (list) => list.length === rootIds.length);
    expect(roots.map((r) => r.id)).toEqual(rootIds);
    expect(roots.at(-1)!.quoted_response).toMatchObject({ id: replyIds[1], content: 'Reply 1' });
    expect(roots[0]!.comment_count).toBe(2);
    const replies = await until(a.data.replies$(rootIds[0]!), (list) => list.length === 2);
    expect(replies.map((r) => r.content)).toEqual(['Reply 0', 'Reply 1']);
    expect((await until(a.data.replies$(rootIds[1]!), () => true)).length).toBe(0);
  });

  it('a vote changes the voted view only: the other roots and the open threads keep their objects', async () => {
    const roots$ = a.data.rootResponses$(topicId);
    const thread$ = a.data.replies$(rootIds[0]!);
    let roots: ResponseView[] = [];
    let thread: ResponseView[] = [];
    const subs = [roots$.subscribe((list) => (roots = list)), thread$.subscribe((list) => (thread = list))];
    try {
      await until(roots$, (list) => list.length === rootIds.length);
      await until(thread$, (list) => list.length === 2);
      const [rootsBefore, threadBefore] = [roots, thread];
      expect(await a.data.toggleVote('response', rootIds[3]!)).toBe(true);
      const after = await until(roots$, (list) => list[3]!.user_has_upvoted);
      expect(after[3]).toMatchObject({ id: rootIds[3], score: rootsBefore[3]!.score + 1 });
      after.forEach((view, i) => (i === 3 ? expect(view).not.toBe(rootsBefore[i]) : expect(view).toBe(rootsBefore[i])));
      expect(thread).toBe(threadBefore);
    } finally {
      subs.forEach((s) => s.unsubscribe());
    }
  });
  it('a reopened device shows the first screen of roots before the whole tree, every emission a prefix of it', async () => {
    await a.close();
    a = await startClient(server.url, { user: ada, indexedDB: a.indexedDB, prefix: a.prefix });
    a.goOffline();
    const seen: ResponseView[][] = [];
    const sub = a.data.rootResponses$(topicId).subscribe((list) => seen.push(list));
    await until(a.data.rootResponses$(topicId), (list) => list.length === rootIds.length);
    sub.unsubscribe();
    const whole = seen.at(-1)!;
    expect(whole.map((r) => r.id)).toEqual(rootIds);
    for (const list of seen) {
      expect(list.length === rootIds.length || list.length <= FIRST_SCREEN_ROOTS).toBe(true);
      expect(list).toEqual(whole.slice(0, list.length));
    }
  });
});
