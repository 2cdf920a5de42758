// Trust: nothing typed is lost, shown to the wrong person or sent twice.
// Real data layer (RxDB over fake-indexeddb), real server, real emulator tokens.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, disableTestUser, emulatorHost, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import type { SessionUser } from '../../app/src/data/index.js';

const session = (user: TestUser): SessionUser => ({ uid: user.uid, getToken: async (force) => (force ? user.refresh() : user.token) });

/** Re-enables a user disabled with disableTestUser (emulator admin endpoint). */
async function enableTestUser(user: TestUser): Promise<void> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: user.uid, disableUser: false }),
  });
  if (!res.ok) throw new Error(`enable failed: ${res.status} ${await res.text()}`);
}

const countResponses = async (server: TestServer, content: string) =>
  (await server.db.row<{ n: number }>('SELECT count(*) AS n FROM responses WHERE content = ? AND deleted = 0', content))!.n;

describe('trust', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const clients: TestClient[] = [];
  const client = async (...args: Parameters<typeof startClient>) => {
    const c = await startClient(...args);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  // RxDB opens at most 13 collections per process: a signed-in client holds 8.
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(() => server.stop());

  it('#1 loadDraft waits for a sign-in in progress instead of answering null', async () => {
    const first = await client(server.url, { user: ada });
    await first.data.saveDraft('reply:abc', 'half a thought', { type: 'for' });
    await first.close();
    // A reload: same profile; auth resolves and signs in while the composer already asks.
    const again = await client(server.url, { indexedDB: first.indexedDB, prefix: first.prefix });
    const signingIn = again.data.signIn(session(ada));
    const draft = await again.data.loadDraft('reply:abc');
    await signingIn;
    expect(draft).toMatchObject({ key: 'reply:abc', text: 'half a thought', extra: { type: 'for' } });
  });

  it('#2 a set-aside reply is listed once and lands once, whatever retries it goes through', async () => {
    const topic = await makeTopic(apiClient(server.url, ada.token));
    const device = await client(server.url, { user: ada });
    await device.data.openTopic(topic.id);
    await until(device.data.topic$(topic.id), (t) => !!t);
    await until(device.data.status$, (s) => s.online && s.pending === 0);

    device.goOffline();
    const content = `Set aside ${Date.now()}`;
    await device.data.createResponse({ topicId: topic.id, type: 'for', content });
    await device.data.signOut();
    // Bob signs in on the same device and writes too; his first attempts fail (a flaky network),
    // so the push that sets Ada's reply aside runs again and again.
    await device.data.signIn(session(bob));
    await device.data.createResponse({ topicId: topic.id, type: 'against', content: `Bob ${content}` });
    device.goOnline();
    device.breakNetwork();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    device.repairNetwork();
    await until(device.data.status$, (s) => s.online && s.pending === 0, 20_000);
    expect(await countResponses(server, `Bob ${content}`)).toBe(1);
    expect(await countResponses(server, content)).toBe(0);
    await device.data.signOut();

    await device.data.signIn(session(ada));
    const problems = await until(device.data.syncProblems$(), (list) => list.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const listed = (await until(device.data.syncProblems$(), () => true)).filter((p) => p.localState.content === content);
    expect(listed).toHaveLength(1);
    expect(problems[0]!.error).toBe('Not sent: you signed out before this change reached the server.');
    const original = listed[0]!.itemId;

    // Retry twice (a double click, or a second device of the list): one response, the original id.
    await device.data.fixProblem(listed[0]!.id);
    await expect(device.data.fixProblem(listed[0]!.id)).rejects.toMatchObject({ code: 'not-found' });
    await until(device.data.status$, (s) => s.online && s.pending === 0, 20_000);
    expect(await countResponses(server, content)).toBe(1);
    const stored = (await server.db.row('SELECT id, creator_uid FROM responses WHERE content = ?', content)) as {
      id: string;
      creator_uid: string;
    };
    expect(stored).toEqual({ id: original, creator_uid: ada.uid });
  });

  it('#3 a conflict keeps both texts and is settled only by the person’s choice', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api);
    const response = await makeResponse(api, { topic_id: topic.id, content: 'the original' });
    // Two devices of the same user; RxDB's collection cap allows one signed in at a time in
    // this process, so each device signs in when it is used (unsent edits wait in its outbox).
    const phone = await client(server.url, { user: ada });
    const laptop = await client(server.url);
    const use = async (device: TestClient) => {
      const other = device === phone ? laptop : phone;
      await other.data.signOut();
      await device.data.signIn(session(ada));
    };
    const settled = (device: TestClient) => until(device.data.status$, (s) => s.online && s.pending === 0, 20_000);
    /** Both devices edit offline; `first` lands, `second` meets a conflict. */
    const editBoth = async (first: TestClient, firstText: string, second: TestClient, secondText: string) => {
      first.goOffline();
      second.goOffline();
      await use(second);
      await second.data.editResponse(response.id, { content: secondText });
      await use(first);
      await first.data.editResponse(response.id, { content: firstText });
      first.goOnline();
      await settled(first);
      await use(second);
      second.goOnline();
      const [problem] = await until(second.data.syncProblems$(), (list) => list.length === 1, 20_000);
      return problem!;
    };
    for (const device of [phone, laptop]) {
      await use(device);
      await device.data.openTopic(topic.id);
      await until(device.data.topicResponses$(topic.id), (list) => list.length === 1);
      await settled(device);
    }

    const problem = await editBoth(phone, 'phone wording', laptop, 'laptop wording');
    expect(problem).toMatchObject({
      kind: 'conflict',
      collection: 'responses',
      itemId: response.id,
      action: 'edit',
      localState: expect.objectContaining({ content: 'laptop wording' }),
      serverState: expect.objectContaining({ content: 'phone wording' }),
    });
    // A retry never overwrites the other device's edit blind.
    await expect(laptop.data.fixProblem(problem.id)).rejects.toMatchObject({ code: 'invalid-argument' });
    await settled(laptop);
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('phone wording');

    // Edit and merge: sent on top of the server's current text, accepted as a deliberate edit.
    await laptop.data.resolveConflict(problem.id, { keep: 'merged', content: 'phone and laptop wording' });
    await until(laptop.data.syncProblems$(), (list) => list.length === 0);
    await settled(laptop);
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('phone and laptop wording');
    await use(phone);
    await until(phone.data.topicResponses$(topic.id), (list) => list[0]?.content === 'phone and laptop wording');

    // Keep theirs: the user's version is dropped, the server's stays.
    const second = await editBoth(laptop, 'laptop again', phone, 'phone again');
    expect(second).toMatchObject({
      localState: expect.objectContaining({ content: 'phone again' }),
      serverState: expect.objectContaining({ content: 'laptop again' }),
    });
    await phone.data.resolveConflict(second.id, { keep: 'theirs' });
    await until(phone.data.syncProblems$(), (list) => list.length === 0);
    await settled(phone);
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('laptop again');
    await until(phone.data.topicResponses$(topic.id), (list) => list[0]?.content === 'laptop again');

    // Keep mine.
    const third = await editBoth(laptop, 'laptop, final', phone, 'phone, final');
    await phone.data.resolveConflict(third.id, { keep: 'mine' });
    await until(phone.data.syncProblems$(), (list) => list.length === 0);
    await settled(phone);
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('phone, final');
  });

  it('#5 exports the user’s own data offline, imports its drafts back, and signOut({removeData}) clears the device', async () => {
    const topic = await makeTopic(apiClient(server.url, bob.token));
    const device = await client(server.url, { user: ada });
    await device.data.openTopic(topic.id);
    await until(device.data.topic$(topic.id), (t) => !!t);
    await until(device.data.status$, (s) => s.online && s.pending === 0);
    await device.data.toggleVote('topic', topic.id);
    await until(device.data.status$, (s) => s.pending === 0);
    // The profile (the export's display name) is on the device: a vote can land before it is pulled.
    await until(device.data.pushSettings$(), (settings) => settings !== null);
    device.goOffline();
    const reply = await device.data.createResponse({ topicId: topic.id, type: 'for', content: 'Unsent reply' });
    await device.data.saveDraft('topic:new', 'A title in progress', { category: 'Science' });

    const exported = await device.data.exportMyData();
    expect(exported).toMatchObject({
      format: 'crux-export',
      version: 1,
      user: { uid: ada.uid, display_name: 'Ada' },
      responses: [expect.objectContaining({ id: reply.id, content: 'Unsent reply', pending: true })],
      votes: [expect.objectContaining({ target_type: 'topic', target_id: topic.id, upvoted: true })],
      drafts: [expect.objectContaining({ key: 'topic:new', text: 'A title in progress' })],
    });
    // Only Ada's own items (the device holds Bob's topic too).
    expect(exported.topics.every((t) => t.creator_uid === ada.uid)).toBe(true);
    expect(exported.topics.some((t) => t.id === topic.id)).toBe(false);
    const json = JSON.parse(JSON.stringify(exported)) as unknown;

    await device.data.signOut({ removeData: true });
    // Nothing of Ada's (nor the public cache) is left: a fresh sign-in finds an empty device.
    expect(await until(device.data.topic$(topic.id), (t) => t !== undefined)).toBeNull();
    await device.data.signIn(session(ada));
    expect(await device.data.loadDraft('topic:new')).toBeNull();
    expect((await until(device.data.status$, () => true)).pending).toBe(0);
    await expect(device.data.importDrafts({ ...(json as object), user: { uid: bob.uid, display_name: 'Bob' } })).rejects.toMatchObject({
      code: 'permission-denied',
    });
    expect(await device.data.importDrafts(json)).toBe(1);
    expect(await device.data.loadDraft('topic:new')).toMatchObject({ text: 'A title in progress' });
    await device.data.signOut({ removeData: true });

    // The public database works again for anonymous browsing once back online.
    device.goOnline();
    await until(device.data.topic$(topic.id), (t) => !!t);
    expect(await countResponses(server, 'Unsent reply')).toBe(0);
  });

  it('#6 responsesOnDevice is false for a topic never opened here, true once its responses were pulled', async () => {
    const api = apiClient(server.url, bob.token);
    const topic = await makeTopic(api);
    await makeResponse(api, { topic_id: topic.id, content: 'A reply not on the device yet' });
    const device = await client(server.url, { user: ada });
    const before = await until(device.data.topic$(topic.id), (t) => !!t && t.responses_count === 1);
    expect(before!.responsesOnDevice).toBe(false);
    const listed = await until(device.data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === topic.id));
    expect(listed.find((t) => t.id === topic.id)!.responsesOnDevice).toBe(false);

    await device.data.openTopic(topic.id);
    await until(device.data.topic$(topic.id), (t) => t?.responsesOnDevice === true);
    await until(device.data.topicResponses$(topic.id), (list) => list.length === 1);
  });

  it('#7 a refused account shows sessionEnded, keeps the change, and sends it after signing in again', async () => {
    const carol = await createTestUser('Carol');
    const topic = await makeTopic(apiClient(server.url, carol.token));
    // getToken as the Firebase SDK behaves: a refused refresh rejects with auth/user-disabled.
    const firebaseLike = (user: TestUser): SessionUser => ({
      uid: user.uid,
      async getToken(force) {
        if (!force) return user.token;
        try {
          return await user.refresh();
        } catch (error) {
          if (String(error).includes('USER_DISABLED'))
            throw Object.assign(new Error('Firebase: Error (auth/user-disabled).'), { code: 'auth/user-disabled' });
          throw error;
        }
      },
    });
    const device = await client(server.url);
    await device.data.signIn(firebaseLike(carol));
    await device.data.openTopic(topic.id);
    // The reply is written offline: the topic must be on the device first (nothing pending is not enough).
    await until(device.data.topic$(topic.id), (t) => Boolean(t));
    await until(device.data.status$, (s) => s.online && s.pending === 0);
    device.goOffline();
    const reply = await device.data.createResponse({ topicId: topic.id, type: 'for', content: 'Written before my account was disabled' });
    await device.data.toggleVote('topic', topic.id);
    await disableTestUser(carol);
    device.goOnline();

    const ended = await until(device.data.status$, (s) => s.sessionEnded, 20_000);
    expect(ended).toMatchObject({ sessionEnded: true, pending: 2 });
    // No more attempts: nothing goes out for this account while the session is over.
    const pushes = () => device.requests.filter((r) => r.path.includes('/responses/push')).length;
    const sent = pushes();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(pushes()).toBe(sent);
    expect((await until(device.data.topicResponses$(topic.id), () => true)).find((r) => r.id === reply.id)?.isPending).toBe(true);
    expect(await countResponses(server, 'Written before my account was disabled')).toBe(0);
    // The app then signs the account out (a user-disabled error signs out): the vote's database
    // closes, but both changes are still on the device and still counted for the next sign-in.
    await device.data.signOut();
    expect(await until(device.data.status$, (s) => s.sessionEnded)).toMatchObject({ sessionEnded: true, pending: 2 });

    await enableTestUser(carol);
    await device.data.signIn(firebaseLike(carol));
    await until(device.data.status$, (s) => !s.sessionEnded && s.pending === 0, 20_000);
    expect(await countResponses(server, 'Written before my account was disabled')).toBe(1);
    expect((await apiClient(server.url).get(`/topics/${topic.id}`)).body.score).toBe(1);
  });

  it('#7 the changes are counted when Firebase signs the account out before the refused refresh reaches the request', async () => {
    const dan = await createTestUser('Dan');
    const topic = await makeTopic(apiClient(server.url, dan.token));
    const device = await client(server.url);
    // The real SDK's order (_logoutIfInvalidated): it signs the user out (onAuthStateChanged: the
    // app closes the user's database) and only then rejects the refresh with auth/user-disabled.
    const signedOutFirst: SessionUser = {
      uid: dan.uid,
      async getToken(force) {
        if (!force) return dan.token;
        try {
          return await dan.refresh();
        } catch (error) {
          if (!String(error).includes('USER_DISABLED')) throw error;
          await device.data.signOut();
          throw Object.assign(new Error('Firebase: Error (auth/user-disabled).'), { code: 'auth/user-disabled' });
        }
      },
    };
    await device.data.signIn(signedOutFirst);
    await device.data.openTopic(topic.id);
    await until(device.data.status$, (s) => s.online && s.pending === 0);
    device.goOffline();
    await device.data.createResponse({ topicId: topic.id, type: 'against', content: 'Written before Firebase signed me out' });
    await device.data.toggleVote('topic', topic.id);
    await disableTestUser(dan);
    device.goOnline();

    // The vote's database closed before the end was reported: it is still counted.
    expect(await until(device.data.status$, (s) => s.sessionEnded, 20_000)).toMatchObject({ sessionEnded: true, pending: 2 });
    expect(await countResponses(server, 'Written before Firebase signed me out')).toBe(0);

    await enableTestUser(dan);
    await device.data.signIn(signedOutFirst);
    await until(device.data.status$, (s) => !s.sessionEnded && s.pending === 0, 20_000);
    expect(await countResponses(server, 'Written before Firebase signed me out')).toBe(1);
    expect((await apiClient(server.url).get(`/topics/${topic.id}`)).body.score).toBe(1);
  });
});
