// New-account limits and the spam repeat check, in the domain, so REST and sync push
// meet the same rules, each at its edge (n allowed, n + 1 refused), on both engines. An account is
// new while younger than NEW_ACCOUNT_HOURS or without a point; the tests make an account "old"
// by setting users.created_at and points directly (what the API cannot do in a test's time).
// Moderators and admins are never new accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_DEFAULTS } from '../../shared/constants.js';
import { MSG, newUserLinksMessage, newUserTopicsMessage } from '../../shared/messages.js';
import type { PushResponse, ResponseDoc, TopicDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { countRows, uniqueId } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const { newUserTopicsPerDay: TOPICS, newUserLinks: LINKS, spamRepeats: REPEATS, spamWindowMinutes: WINDOW } = MODERATION_DEFAULTS;

const topicDoc = (title: string, id = uniqueId('t')): TopicDoc => ({
  id,
  title,
  category: 'Science',
  creator_uid: '',
  username: null,
  created_at: '2000-01-01T00:00:00.000Z',
  score: 0,
  responses_count: 0,
  stance_agree: 0,
  stance_disagree: 0,
  stance_unsure: 0,
  minds_changed: 0,
  locked: false,
  moderation: null,
  moderation_reason: null,
  opinion_groups: null,
  seq: 0,
  _deleted: false,
});

const responseDoc = (topicId: string, content: string, sources: ResponseDoc['sources'] = []): ResponseDoc => ({
  id: uniqueId('r'),
  topic_id: topicId,
  parent_response_id: null,
  quoted_response_id: null,
  type: 'for',
  content,
  sources,
  creator_uid: '',
  username: null,
  created_at: '',
  updated_at: '',
  edited_at: null,
  versions: [],
  score: 0,
  comment_count: 0,
  delta_count: 0,
  upvotes_agree: 0,
  upvotes_disagree: 0,
  downvotes_agree: 0,
  downvotes_disagree: 0,
  moderation: null,
  moderation_reason: null,
  seq: 0,
  _deleted: false,
});

const links = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `https://example.org/source-${i}`, name: `Source ${i}`, description: '' }));

describe('new-account limits and spam', () => {
  let server: TestServer;
  /** The server's clock runs this far ahead of the real one (the spam window passing). */
  let ahead = 0;
  let host: TestUser;
  let hostTopic: string;
  const as = (user: TestUser) => apiClient(server.url, user.token);

  /** Makes the account old (created two days ago) with `points` points. */
  async function age(user: TestUser, points: number, hoursOld = 48) {
    expect((await as(user).get('/users/preferences')).status).toBe(200); // the server has seen it
    const createdAt = new Date(Date.now() + ahead - hoursOld * 3_600_000).toISOString();
    await server.db.run('UPDATE users SET created_at = ?, points = ? WHERE uid = ?', createdAt, points, user.uid);
  }

  const pushTopics = (user: TestUser, docs: TopicDoc[]) =>
    as(user).post<PushResponse<TopicDoc>>(
      '/sync/topics/push',
      docs.map((doc) => ({ newDocumentState: doc })),
    );
  const pushResponses = (user: TestUser, docs: { assumed?: ResponseDoc; next: ResponseDoc }[]) =>
    as(user).post<PushResponse<ResponseDoc>>(
      '/sync/responses/push',
      docs.map(({ assumed, next }) => ({ ...(assumed ? { assumedMasterState: assumed } : {}), newDocumentState: next })),
    );

  beforeAll(async () => {
    server = await startTestServer({ moderation: true, clock: () => new Date(Date.now() + ahead) });
    host = await createTestUser('Host');
    await age(host, 10);
    hostTopic = (await as(host).post('/topics', { title: 'Where the replies go', categories: ['Science'] })).body.id;
  });
  afterAll(() => server?.stop());

  it(`REST: a new account creates ${TOPICS} topics in 24 h, deleted ones counting; the next is 403; a retried create still answers`, async () => {
    const newbie = await createTestUser('Newbie');
    const ids: string[] = [];
    for (let i = 0; i < TOPICS; i++) {
      const res = await as(newbie).post('/topics', { id: uniqueId('t'), title: `New topic ${i}`, categories: ['Science'] });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // A deleted topic still counts.
    expect((await as(newbie).del(`/topics/${ids[0]}`)).status).toBe(204);
    const refused = await as(newbie).post('/topics', { title: 'One too many', categories: ['Science'] });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: newUserTopicsMessage(TOPICS), code: 'permission-denied' });
    expect(await countRows(server.db, 'topics', 'creator_uid = ?', newbie.uid)).toBe(TOPICS);
    // The retry of a create that landed answers as the first time did (and does not count itself).
    const retried = await as(newbie).post('/topics', { id: ids[1], title: 'New topic 1', categories: ['Science'] });
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(ids[1]);
  });

  it(`sync push: the same limit, and a retried row lands once and is not refused`, async () => {
    const newbie = await createTestUser('Pushing Newbie');
    const docs = Array.from({ length: TOPICS + 1 }, (_, i) => topicDoc(`Pushed topic ${i}`));
    const first = await pushTopics(newbie, docs.slice(0, TOPICS));
    expect(first.body.rejected).toEqual([]);
    // The same rows again (RxDB retries): the server's state, nothing refused.
    const again = await pushTopics(newbie, docs.slice(0, TOPICS));
    expect(again.body.rejected).toEqual([]);
    expect(again.body.conflicts.map((doc) => doc.id)).toEqual(docs.slice(0, TOPICS).map((doc) => doc.id));
    const last = await pushTopics(newbie, [docs[TOPICS]!]);
    expect(last.body.rejected).toEqual([
      { id: docs[TOPICS]!.id, status: 403, code: 'permission-denied', error: newUserTopicsMessage(TOPICS), master: null },
    ]);
    expect(await countRows(server.db, 'topics', 'creator_uid = ?', newbie.uid)).toBe(TOPICS);
  });

  it('an old account with points is not limited; an old one without points or a young one with points is', async () => {
    const veteran = await createTestUser('Veteran');
    await age(veteran, 3);
    for (let i = 0; i <= TOPICS; i++) {
      expect((await as(veteran).post('/topics', { title: `Veteran topic ${i}`, categories: ['Science'] })).status).toBe(201);
    }
    const sources = links(LINKS + 1);
    expect((await as(veteran).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Well sourced', sources })).status).toBe(201);

    const noPoints = await createTestUser('Old But Pointless');
    await age(noPoints, 0);
    const young = await createTestUser('Young With Points');
    await age(young, 5, 1); // an hour old
    for (const user of [noPoints, young]) {
      const res = await as(user).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Too many links', sources });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(newUserLinksMessage(LINKS));
    }
  });

  it('a moderator or admin is never a new account (the spam check still applies)', async () => {
    const mod = await createTestUser('New Moderator');
    await setTestUserRole(mod, 'moderator');
    for (let i = 0; i <= TOPICS; i++) {
      expect((await as(mod).post('/topics', { title: `Moderator topic ${i}`, categories: ['Science'] })).status).toBe(201);
    }
    expect(
      (await as(mod).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Sourced', sources: links(LINKS + 1) })).status,
    ).toBe(201);
    for (let i = 0; i < REPEATS; i++) {
      expect((await as(mod).post('/topics', { title: 'Moderator repeats', categories: ['Science'] })).status).toBe(201);
    }
    expect((await as(mod).post('/topics', { title: 'Moderator repeats', categories: ['Science'] })).body.error).toBe(MSG.spamRepeat);
  });

  it(`REST: a new account cites ${LINKS} sources in a response; ${LINKS + 1} is 400, on create and on edit`, async () => {
    const newbie = await createTestUser('Linker');
    const ok = await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Two links', sources: links(LINKS) });
    expect(ok.status).toBe(201);
    expect(ok.body.sources).toHaveLength(LINKS);
    // The same URL twice is one source.
    const twice = [...links(LINKS), links(1)[0]!];
    expect(
      (await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Repeated link', sources: twice })).status,
    ).toBe(201);
    const refused = await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Three', sources: links(LINKS + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: newUserLinksMessage(LINKS), code: 'invalid-argument' });
    const edit = await as(newbie).put(`/responses/${ok.body.id}`, { content: 'Two links, then three', sources: links(LINKS + 1) });
    expect(edit.status).toBe(400);
    expect(edit.body.error).toBe(newUserLinksMessage(LINKS));
    expect((await as(newbie).get(`/responses/${ok.body.id}`)).body).toMatchObject({
      content: 'Two links',
      sources: links(LINKS).map(() => expect.anything()),
    });
    // An edit without sources leaves them as they are and is not limited.
    expect((await as(newbie).put(`/responses/${ok.body.id}`, { content: 'Two links, edited' })).status).toBe(200);
  });

  it('REST and sync push: links in the formatted text count with the sources, by distinct address', async () => {
    const newbie = await createTestUser('Markdown Linker');
    const inText = (n: number) =>
      Array.from({ length: n }, (_, i) => (i % 2 ? `see https://example.net/bare-${i}` : `[a link](https://example.net/md-${i})`)).join(
        ' and ',
      );
    // LINKS in the text alone: allowed; one more, in the text or as a source, is 400.
    const ok = await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: inText(LINKS) });
    expect(ok.status).toBe(201);
    const refused = await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: inText(LINKS + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(newUserLinksMessage(LINKS));
    const mixed = await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: inText(LINKS), sources: links(1) });
    expect(mixed.status).toBe(400);
    // A source the text links to as well is one link.
    const same = `[the source](${links(1)[0]!.url}) ${inText(LINKS - 1)}`;
    expect((await as(newbie).post('/responses', { topic_id: hostTopic, type: 'for', content: same, sources: links(1) })).status).toBe(201);
    // An edit adding a link to a text whose sources already reach the limit (sources left out stay).
    const sourced = await as(newbie).post('/responses', {
      topic_id: hostTopic,
      type: 'for',
      content: 'Sources only',
      sources: links(LINKS),
    });
    expect(sourced.status).toBe(201);
    const edit = await as(newbie).put(`/responses/${sourced.body.id}`, { content: 'Now with [one more](https://example.net/more)' });
    expect(edit.status).toBe(400);
    expect(edit.body.error).toBe(newUserLinksMessage(LINKS));
    // Sync push meets the same count.
    const pushed = await pushResponses(newbie, [{ next: responseDoc(hostTopic, inText(LINKS + 1)) }]);
    expect(pushed.body.rejected).toMatchObject([{ status: 400, error: newUserLinksMessage(LINKS) }]);
  });

  it('sync push: the links limit on create and on edit', async () => {
    const newbie = await createTestUser('Pushing Linker');
    const ok = responseDoc(hostTopic, 'Pushed with two', links(LINKS));
    const tooMany = responseDoc(hostTopic, 'Pushed with three', links(LINKS + 1));
    const res = await pushResponses(newbie, [{ next: ok }, { next: tooMany }]);
    expect(res.body.rejected).toEqual([
      { id: tooMany.id, status: 400, code: 'invalid-argument', error: newUserLinksMessage(LINKS), master: null },
    ]);
    const master = res.body.conflicts.find((doc) => doc.id === ok.id)!;
    expect(master.sources).toHaveLength(LINKS);
    const edit = await pushResponses(newbie, [{ assumed: master, next: { ...master, sources: links(LINKS + 1) } }]);
    expect(edit.body.rejected).toMatchObject([{ id: ok.id, status: 400, error: newUserLinksMessage(LINKS) }]);
    expect(edit.body.rejected[0]!.master!.sources).toHaveLength(LINKS);
  });

  it(`spam: the same title ${REPEATS} times in ${WINDOW} minutes is allowed, once more is 400 (case and spaces aside); later it is allowed again`, async () => {
    const poster = await createTestUser('Repeater');
    await age(poster, 10);
    for (let i = 0; i < REPEATS; i++) {
      expect((await as(poster).post('/topics', { title: 'Buy cheap watches here', categories: ['Other'] })).status).toBe(201);
    }
    const refused = await as(poster).post('/topics', { title: '  buy CHEAP   watches\there ', categories: ['Other'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: MSG.spamRepeat, code: 'invalid-argument' });
    const pushed = topicDoc('BUY cheap watches here');
    expect((await pushTopics(poster, [pushed])).body.rejected).toMatchObject([{ id: pushed.id, status: 400, error: MSG.spamRepeat }]);
    // Another title is fine; and once the window has passed, the same one again.
    expect((await as(poster).post('/topics', { title: 'Buy cheap clocks here', categories: ['Other'] })).status).toBe(201);
    ahead += (WINDOW + 1) * 60_000;
    try {
      expect((await as(poster).post('/topics', { title: 'Buy cheap watches here', categories: ['Other'] })).status).toBe(201);
    } finally {
      ahead -= (WINDOW + 1) * 60_000;
    }
  });

  it(`spam: the same response content ${REPEATS} times is allowed, once more is 400, for REST and sync push`, async () => {
    const poster = await createTestUser('Reply Repeater');
    await age(poster, 10);
    for (let i = 0; i < REPEATS - 1; i++) {
      expect((await as(poster).post('/responses', { topic_id: hostTopic, type: 'for', content: 'Visit my site!' })).status).toBe(201);
    }
    const third = responseDoc(hostTopic, 'visit my  site!');
    expect((await pushResponses(poster, [{ next: third }])).body.rejected).toEqual([]);
    const refused = await as(poster).post('/responses', { topic_id: hostTopic, type: 'against', content: 'Visit My Site!' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(MSG.spamRepeat);
    const fourth = responseDoc(hostTopic, 'Visit my site!');
    expect((await pushResponses(poster, [{ next: fourth }])).body.rejected).toEqual([
      { id: fourth.id, status: 400, code: 'invalid-argument', error: MSG.spamRepeat, master: null },
    ]);
    // The retried push of the third lands once, not refused.
    expect((await pushResponses(poster, [{ next: third }])).body.rejected).toEqual([]);
    expect(await countRows(server.db, 'responses', 'creator_uid = ?', poster.uid)).toBe(REPEATS);
  });
});

describe('limits off (MODERATION_LIMITS=off, the default of the test server)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('a new account posts past every limit', async () => {
    const newbie = await createTestUser('Unlimited');
    const api = apiClient(server.url, newbie.token);
    let topicId = '';
    for (let i = 0; i <= Math.max(TOPICS, REPEATS); i++) {
      const res = await api.post('/topics', { title: 'Same title', categories: ['Science'] });
      expect(res.status).toBe(201);
      topicId = res.body.id;
    }
    expect((await api.post('/responses', { topic_id: topicId, type: 'for', content: 'Links', sources: links(LINKS + 1) })).status).toBe(
      201,
    );
  });
});
