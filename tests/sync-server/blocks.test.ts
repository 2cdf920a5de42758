// Blocking against the real server and emulator tokens, on both engines: REST and
// sync push through the one domain operation, the privacy of a block list (no other token ever
// reads it: REST, pull, load, stream), a push that lands once, the refusals, and the notifications
// a block suppresses (only for the blocker; unblocking restores them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import {
  SYNC_PROTOCOL_VERSION,
  type BlockDoc,
  type NotificationDoc,
  type PullResponse,
  type PushResponse,
} from '../../shared/sync-protocol.js';
import type { BlockedUser } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, renameTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };

describe('blocks', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const list = async (user: TestUser) => (await as(user).get<BlockedUser[]>('/blocks')).body;
  const pull = async (user: TestUser) => (await as(user).get<PullResponse<BlockDoc>>('/sync/blocks/pull?limit=1000', SYNC)).body.documents;
  const push = (user: TestUser, doc: Partial<BlockDoc> & { id: string }, assumed: BlockDoc | null = null) =>
    as(user).post<PushResponse<BlockDoc>>(
      '/sync/blocks/push',
      [
        {
          assumedMasterState: assumed,
          newDocumentState: {
            blocked_uid: doc.id,
            display_name: null,
            blocked: true,
            updated_at: new Date().toISOString(),
            seq: 0,
            _deleted: false,
            ...doc,
          },
        },
      ],
      SYNC,
    );
  const notifications = async (user: TestUser) =>
    (await as(user).get<PullResponse<NotificationDoc>>('/sync/notifications/pull?limit=1000', SYNC)).body.documents.filter(
      (n) => !n._deleted,
    );

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
    // The server knows a user once they have called it.
    for (const user of [ada, bob, carol]) expect((await as(user).get('/blocks')).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('blocks and unblocks through REST: the list, 200 then 204, repeated calls harmless', async () => {
    const put = await as(ada).put<BlockedUser>(`/blocks/${bob.uid}`);
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ uid: bob.uid, display_name: 'Bob', updated_at: expect.any(String) });
    expect((await as(ada).put(`/blocks/${bob.uid}`)).status).toBe(200);
    expect(await list(ada)).toEqual([put.body]);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ?', ada.uid)).toBe(1);
    expect((await as(ada).del(`/blocks/${bob.uid}`)).status).toBe(204);
    expect((await as(ada).del(`/blocks/${bob.uid}`)).status).toBe(204);
    expect(await list(ada)).toEqual([]);
    // Unblocking keeps the row (blocked = 0), so the change replicates.
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ? AND blocked = 0', ada.uid)).toBe(1);
    const docs = await pull(ada);
    expect(docs.filter((d) => d.id === bob.uid).at(-1)).toMatchObject({
      id: bob.uid,
      blocked_uid: bob.uid,
      blocked: false,
      _deleted: false,
    });
  });

  it('refuses yourself (400), an unknown user (404) and the signed out (401), REST and push alike', async () => {
    for (const res of [await as(ada).put(`/blocks/${ada.uid}`), await as(ada).del(`/blocks/${ada.uid}`)]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(MSG.blockSelf);
    }
    const unknown = await as(ada).put('/blocks/no-such-user');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(MSG.userNotFound);
    for (const res of [await as().get('/blocks'), await as().put(`/blocks/${bob.uid}`), await as().del(`/blocks/${bob.uid}`)]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.loginToBlock);
    }
    const self = await push(ada, { id: ada.uid });
    expect(self.body.rejected).toEqual([expect.objectContaining({ id: ada.uid, status: 400, error: MSG.blockSelf })]);
    const nobody = await push(ada, { id: 'no-such-user' });
    expect(nobody.body.rejected).toEqual([expect.objectContaining({ id: 'no-such-user', status: 404, error: MSG.userNotFound })]);
    expect((await as().get('/sync/blocks/pull', SYNC)).status).toBe(401);
    expect(await countRows(server.db, 'blocks', 'blocked_uid IN (?, ?)', ada.uid, 'no-such-user')).toBe(0);
  });

  it('a pushed block lands once: a retried push changes nothing, the answer carries the server state', async () => {
    const first = await push(carol, { id: bob.uid });
    expect(first.status, first.text).toBe(200);
    expect(first.body.rejected).toEqual([]);
    const landed = first.body.conflicts.find((d) => d.id === bob.uid)!;
    expect(landed).toMatchObject({ blocked: true, display_name: 'Bob', seq: expect.any(Number) });
    expect(landed.seq).toBeGreaterThan(0);
    // The same push again (its answer was lost): no second row, no new seq.
    const retry = await push(carol, { id: bob.uid });
    expect(retry.body.rejected).toEqual([]);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ? AND blocked_uid = ?', carol.uid, bob.uid)).toBe(1);
    expect((await pull(carol)).filter((d) => d.id === bob.uid)).toEqual([landed]);
    expect((await list(carol)).map((b) => b.uid)).toEqual([bob.uid]);
    // Unblocked by push, from the state the device knew.
    const off = await push(carol, { id: bob.uid, blocked: false }, landed);
    expect(off.body.rejected).toEqual([]);
    expect(await list(carol)).toEqual([]);
    // A tombstone is not how one unblocks.
    const deleted = await push(carol, { id: bob.uid, _deleted: true });
    expect(deleted.body.rejected[0]).toMatchObject({ status: 400 });
  });

  it('is private: another token never pulls, loads or hears of my blocks; the blocked user sees nothing', async () => {
    const dave = await createTestUser('Dave');
    const eve = await createTestUser('Eve');
    expect((await as(eve).get('/blocks')).status).toBe(200);
    expect((await as(dave).put(`/blocks/${eve.uid}`)).status).toBe(200);
    expect((await pull(dave)).map((d) => d.id)).toEqual([eve.uid]);
    // Eve (the blocked one) and Ada (anyone): nothing of Dave's.
    for (const other of [eve, ada]) {
      expect((await pull(other)).every((d) => d.id !== eve.uid)).toBe(true);
      expect((await list(other)).some((b) => b.uid === eve.uid)).toBe(false);
    }
    // Pushing under Dave's block id with another token touches the pusher's own list only.
    const eveBlocksEve = await push(eve, { id: eve.uid, blocked: false });
    expect(eveBlocksEve.body.rejected[0]).toMatchObject({ status: 400 });
    expect((await list(dave)).map((b) => b.uid)).toEqual([eve.uid]);
    // The public collections carry no trace of it: Eve's topic is served as to anyone.
    const topic = await makeTopic(as(eve));
    expect((await as(dave).get(`/topics/${topic.id}`)).status).toBe(200);
  });

  it('a reply by someone the recipient blocked does not notify them; others still are; unblocking restores it', async () => {
    const frank = await createTestUser('Frank');
    const gina = await createTestUser('Gina');
    expect((await as(gina).get('/blocks')).status).toBe(200);
    const topic = await makeTopic(as(frank));
    const hers = await makeResponse(as(gina), { topic_id: topic.id, type: 'for' });
    const before = (await notifications(frank)).length;
    expect(before).toBe(1); // Gina's answer to Frank's topic
    expect((await as(frank).put(`/blocks/${gina.uid}`)).status).toBe(200);
    // Gina answers Frank's topic and Frank replies to Gina: only Gina hears of it.
    await makeResponse(as(gina), { topic_id: topic.id, type: 'against' });
    const frankReply = await makeResponse(as(frank), { topic_id: topic.id, parent_response_id: hers.id, type: 'neutral' });
    await makeResponse(as(gina), { topic_id: topic.id, parent_response_id: frankReply.id, type: 'for' });
    expect((await notifications(frank)).length).toBe(before);
    expect((await notifications(gina)).map((n) => n.response_id)).toContain(frankReply.id);
    // Others still notify Frank.
    await makeResponse(as(ada), { topic_id: topic.id, type: 'for' });
    expect((await notifications(frank)).length).toBe(before + 1);
    // Nor do they reach his weekly summary's replies (a digest of what would have notified him).
    const week = { start: new Date(Date.now() - 60 * 60_000).toISOString(), end: new Date(Date.now() + 60_000).toISOString() };
    const mailed = await server.store.mail.repliesTo(frank.uid, week.start, week.end, 100);
    expect(mailed.items.map((reply) => reply.author_name)).toEqual(['Ada']);
    expect(mailed.total).toBe(1);
    // Unblocked: Gina's next reply notifies him again.
    expect((await as(frank).del(`/blocks/${gina.uid}`)).status).toBe(204);
    const again = await makeResponse(as(gina), { topic_id: topic.id, parent_response_id: frankReply.id, type: 'for' });
    expect((await notifications(frank)).map((n) => n.response_id)).toContain(again.id);
    const unblocked = await server.store.mail.repliesTo(frank.uid, week.start, new Date(Date.now() + 60_000).toISOString(), 100);
    expect(unblocked.items.filter((reply) => reply.author_name === 'Gina')).toHaveLength(4);
  });

  it('a blocked user who renames reaches the blocker as a new block document with the new name', async () => {
    const hal = await createTestUser('Hal');
    expect((await as(hal).get('/blocks')).status).toBe(200);
    expect((await as(ada).put(`/blocks/${hal.uid}`)).status).toBe(200);
    const before = (await pull(ada)).filter((d) => d.id === hal.uid).at(-1)!;
    await renameTestUser(hal, 'Hal 9000');
    expect((await as(hal).get('/blocks')).status).toBe(200);
    const after = (await pull(ada)).filter((d) => d.id === hal.uid).at(-1)!;
    expect(after).toMatchObject({ display_name: 'Hal 9000', blocked: true });
    expect(after.seq).toBeGreaterThan(before.seq);
    expect((await list(ada)).find((b) => b.uid === hal.uid)?.display_name).toBe('Hal 9000');
  });
});
