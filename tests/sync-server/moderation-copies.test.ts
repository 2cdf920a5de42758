// Every copy of a removed, hidden or deleted item's words goes with it, on either engine (the
// server-pg lane runs this file on PostgreSQL): the excerpts notifications keep (mentions, replies,
// "replied in a topic you follow"), over REST and in the notifications pull (a new seq, so devices
// replace what they hold), a push refused once and retried after the removal, and the sources
// catalogue's citation. A restore brings them back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../../shared/push.js';
import type { NotificationDoc, PullResponse } from '../../shared/sync-protocol.js';
import type { Notification, Source } from '../../shared/types.js';
import { hideItem } from '../../sync-server/src/domain/moderation-items.js';
import { startPushSender, type PushSender } from '../../sync-server/src/push/sender.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, uniqueId } from '../fixtures/builders.js';
import { startPushReceiver, type PushReceiver } from '../fixtures/push-receiver.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('removed words leave every copy', () => {
  let server: TestServer;
  let receiver: PushReceiver;
  let host: TestUser;
  let bea: TestUser;
  let axel: TestUser;
  let mod: TestUser;
  const senders: PushSender[] = [];
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const act = (body: Record<string, unknown>) => as(mod).post('/moderation/actions', { reason: 'Harassment', ...body });
  const listText = async (user: TestUser) => {
    const res = await as(user).get<Notification[]>(`/notifications/user/${user.uid}?limit=100`);
    expect(res.status).toBe(200);
    return res.text;
  };
  const pull = async (user: TestUser, from: { id: string; seq: number }) => {
    const res = await as(user).get<PullResponse<NotificationDoc>>(`/sync/notifications/pull?id=${from.id}&seq=${from.seq}&limit=1000`);
    expect(res.status).toBe(200);
    return res.body;
  };

  /** Host's topic, Bea answers it (a participant), then Axel names her with the secret words. */
  async function mention(secret: string) {
    const topic = await makeTopic(as(host), { title: `Mention topic ${uniqueId()}` });
    await makeResponse(as(bea), { topic_id: topic.id, content: 'My first point' });
    const checkpoint = (await pull(bea, { id: '', seq: 0 })).checkpoint;
    const response = await makeResponse(as(axel), { topic_id: topic.id, content: `@Bea ${secret}` });
    return { topic, response, checkpoint };
  }

  beforeAll(async () => {
    server = await startTestServer();
    receiver = await startPushReceiver(server.vapid.publicKey);
    [host, bea, axel, mod] = await Promise.all([
      createTestUser('Host'),
      createTestUser('Bea'),
      createTestUser('Axel'),
      createTestUser('Mod'),
    ]);
    await setTestUserRole(mod, 'moderator');
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    expect(receiver.problems).toEqual([]);
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  it("a removed mention leaves the named person's notifications (REST and pull), and a restore brings it back", async () => {
    const secret = 'secretwords alpha';
    const { response, checkpoint } = await mention(secret);
    expect(await listText(bea)).toContain(secret);
    const named = (await pull(bea, checkpoint)).documents.find((doc) => !doc._deleted && doc.response_id === response.id);
    expect(named?.type).toBe('mention');

    expect((await act({ action: 'remove', target_type: 'response', target_id: response.id })).status).toBe(200);
    expect(await listText(bea)).not.toContain(secret);
    const afterRemoval = await pull(bea, { id: named!.id, seq: named!.seq });
    const rewritten = afterRemoval.documents.find((doc) => doc.id === named!.id);
    expect(rewritten, 'the pull carries the rewritten notification').toBeDefined();
    expect(JSON.stringify(rewritten)).not.toContain(secret);

    expect((await act({ action: 'restore', target_type: 'response', target_id: response.id })).status).toBe(200);
    expect(await listText(bea)).toContain(secret);
    const afterRestore = await pull(bea, { id: rewritten!.id, seq: rewritten!.seq });
    expect(JSON.stringify(afterRestore.documents.find((doc) => doc.id === named!.id))).toContain(secret);
  });

  it("an automatic hide and the author's own delete rewrite the copies too", async () => {
    const hidden = await mention('secretwords bravo');
    await server.store.transaction(() => hideItem(server.ctx, 'response', hidden.response.id, 'hidden', null));
    expect(await listText(bea)).not.toContain('secretwords bravo');

    const deleted = await mention('secretwords charlie');
    expect(await listText(bea)).toContain('secretwords charlie');
    expect((await as(axel).del(`/responses/${deleted.response.id}`)).status).toBe(204);
    expect(await listText(bea)).not.toContain('secretwords charlie');
    const pulled = await pull(bea, deleted.checkpoint);
    expect(JSON.stringify(pulled.documents)).not.toContain('secretwords charlie');
  });

  it('a removed topic title leaves the reply and follower notifications; a removed response leaves the replies to it', async () => {
    const topic = await makeTopic(as(host), { title: 'Topic secretwords delta' });
    // Bea joins (and so follows), then Axel's root response notifies Host (a reply) and Bea (a follower).
    const joined = await makeResponse(as(bea), { topic_id: topic.id, content: 'Bea secretwords echo' });
    await makeResponse(as(axel), { topic_id: topic.id, content: 'A plain root response' });
    await makeResponse(as(axel), { topic_id: topic.id, parent_response_id: joined.id, content: 'A plain reply' });
    expect(await listText(host)).toContain('secretwords delta');
    expect(await listText(bea)).toContain('secretwords delta');
    expect(await listText(bea)).toContain('secretwords echo');

    expect((await act({ action: 'remove', target_type: 'topic', target_id: topic.id })).status).toBe(200);
    expect((await act({ action: 'remove', target_type: 'response', target_id: joined.id })).status).toBe(200);
    expect(await listText(host)).not.toContain('secretwords delta');
    expect(await listText(bea)).not.toContain('secretwords delta');
    expect(await listText(bea)).not.toContain('secretwords echo');

    expect((await act({ action: 'restore', target_type: 'topic', target_id: topic.id })).status).toBe(200);
    expect((await act({ action: 'restore', target_type: 'response', target_id: joined.id })).status).toBe(200);
    expect(await listText(host)).toContain('secretwords delta');
    expect(await listText(bea)).toContain('secretwords echo');
  });

  it('a push refused with 503 and retried after the removal does not carry the words', async () => {
    const device = receiver.device('bea-phone');
    expect((await as(bea).put('/push/subscription', device.subscription)).status).toBe(201);
    receiver.answer('bea-phone', { status: 503 });
    const sender = startPushSender({
      store: server.store,
      changes: server.ctx.changes,
      vapid: server.vapid,
      allowLoopback: true,
      retryBaseMs: 400,
      log: () => {},
    });
    senders.push(sender);
    const { response } = await mention('secretwords foxtrot');
    await until(() => receiver.attempts.some((a) => a.device === 'bea-phone' && a.status === 503), 'the refused push');
    expect((await act({ action: 'remove', target_type: 'response', target_id: response.id })).status).toBe(200);
    await until(async () => (await server.store.push.depth()) === 0, 'the retry', 15_000);
    await sender.idle();
    const payloads = receiver.received.filter((p) => p.device === 'bea-phone').map((p) => p.payload as PushPayload);
    expect(JSON.stringify(payloads)).not.toContain('secretwords foxtrot');
    expect((await as(bea).del('/push/subscription', { endpoint: device.subscription.endpoint })).status).toBe(204);
  });

  it('the sources catalogue lists a citation only while its response is live and not moderated', async () => {
    const topic = await makeTopic(as(host), { title: `Sources topic ${uniqueId()}` });
    const cite = (url: string) =>
      makeResponse(as(axel), { topic_id: topic.id, content: 'With a source', sources: [{ url, name: 'src x' }] });
    const listed = async (url: string) => {
      const search = await as().get<Source[]>(`/sources?q=${encodeURIComponent('x')}`);
      const page = await as().get<Source[]>(`/sources?filter=${encodeURIComponent(url)}&include=citations`);
      const all = await as().get<Source[]>('/sources?limit=500');
      return {
        search: search.body.some((s) => s.url === url),
        page: page.body.some((s) => s.url === url),
        total: Number(page.headers.get('x-total-count')),
        all: all.body.some((s) => s.url === url),
      };
    };
    const removedUrl = `https://example.com/x-${uniqueId()}`;
    const removed = await cite(removedUrl);
    expect(await listed(removedUrl)).toEqual({ search: true, page: true, total: 1, all: true });
    expect((await act({ action: 'remove', target_type: 'response', target_id: removed.id })).status).toBe(200);
    expect(await listed(removedUrl)).toEqual({ search: false, page: false, total: 0, all: false });
    expect((await act({ action: 'restore', target_type: 'response', target_id: removed.id })).status).toBe(200);
    expect(await listed(removedUrl)).toEqual({ search: true, page: true, total: 1, all: true });

    const hiddenUrl = `https://example.com/x-${uniqueId()}`;
    const hidden = await cite(hiddenUrl);
    await server.store.transaction(() => hideItem(server.ctx, 'response', hidden.id, 'hidden', null));
    expect(await listed(hiddenUrl)).toEqual({ search: false, page: false, total: 0, all: false });

    const deletedUrl = `https://example.com/x-${uniqueId()}`;
    const deleted = await cite(deletedUrl);
    expect((await as(axel).del(`/responses/${deleted.id}`)).status).toBe(204);
    expect(await listed(deletedUrl)).toEqual({ search: false, page: false, total: 0, all: false });
  });
});
