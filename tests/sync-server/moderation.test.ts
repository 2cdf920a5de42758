// Moderation against the real server on either engine (the server-pg lane runs this file
// on PostgreSQL): reports (create, update, reopen, refusals), the authorization matrix of every
// moderation route and action (member / moderator / admin / suspended, and acting on an admin's
// item), auto-hide with and without standing, and locks and suspensions refusing REST and sync
// push writes alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_DEFAULTS, SUSPENDED_FOR_GOOD, type ModerationAction } from '../../shared/constants.js';
import { MSG, suspendedMessage } from '../../shared/messages.js';
import { AUTO_HIDES_PER_REPORTER_PER_DAY, autoHideReporters } from '../../shared/rules/auto-hide.js';
import { STANDING_MIN_AGE_DAYS, STANDING_MIN_POINTS } from '../../shared/rules/standing.js';
import type { FollowDoc, ProfileDoc, PullResponse, PushResponse, ReportDoc, ResponseDoc, TopicDoc } from '../../shared/sync-protocol.js';
import { reportDocId } from '../../shared/sync-protocol.js';
import type {
  FollowedTopic,
  ModeratedUser,
  ModerationLogEntry,
  ModerationLogPage,
  ModerationQueuePage,
  Report,
  Response,
  Topic,
} from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, deleteTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, uniqueId, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('moderation', () => {
  let server: TestServer;
  let member: TestUser;
  let author: TestUser;
  let mod: TestUser;
  let admin: TestUser;
  let reporters: TestUser[];
  /** Accounts with standing outside every reporting group: their upvotes are what give a reporter standing. */
  let vouchers: TestUser[];
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const report = (user: TestUser, body: Record<string, unknown>) => as(user).post<Report & { error?: string }>('/reports', body);
  const act = (user: TestUser | undefined, body: Record<string, unknown>) =>
    as(user).post<ModerationLogEntry & { error?: string }>('/moderation/actions', { reason: 'Rule 1', ...body });
  const queue = (user: TestUser, status: 'open' | 'handled' = 'open') =>
    as(user).get<ModerationQueuePage>(`/moderation/reports?status=${status}&limit=100`);
  /** Makes the account `days` old (the server's first sighting of it). */
  const age = (user: TestUser, days = STANDING_MIN_AGE_DAYS + 1) =>
    server.db.run('UPDATE users SET created_at = ? WHERE uid = ? ', new Date(Date.now() - days * DAY_MS).toISOString(), user.uid);
  /**
   * Gives a user standing now: an account first seen long ago, with STANDING_MIN_POINTS upvotes
   * from accounts that have standing themselves and report nothing.
   */
  const giveStanding = async (user: TestUser, days?: number) => {
    await age(user, days);
    const topic = await makeTopic(as(user));
    for (const voucher of vouchers) await upvote(as(voucher), 'topic', topic.id);
  };

  beforeAll(async () => {
    server = await startTestServer();
    [member, author, mod, admin, ...reporters] = await Promise.all([
      createTestUser('Member'),
      createTestUser('Author'),
      createTestUser('Mod'),
      createTestUser('Admin'),
      ...Array.from({ length: MODERATION_DEFAULTS.autoHideReports + 1 }, (_, i) => createTestUser(`Reporter ${i}`)),
    ]);
    vouchers = await Promise.all(Array.from({ length: STANDING_MIN_POINTS }, (_, i) => createTestUser(`Voucher ${i}`)));
    await Promise.all([setTestUserRole(mod, 'moderator'), setTestUserRole(admin, 'admin')]);
    // Every account is known to the server (an admin's role is read from its row).
    for (const user of [member, author, mod, admin, ...reporters, ...vouchers])
      expect((await as(user).get('/users/preferences')).status).toBe(200);
    for (const voucher of vouchers) {
      await age(voucher);
      await server.db.run('UPDATE users SET points = ? WHERE uid = ?', STANDING_MIN_POINTS, voucher.uid);
    }
  });
  afterAll(() => server.stop());

  describe('reports', () => {
    it('a new report is 201, an update of the open one 200, the same report again changes nothing', async () => {
      const topic = await makeTopic(as(author));
      const first = await report(member, { target_type: 'topic', target_id: topic.id, reason: 'spam' });
      expect(first.status, first.text).toBe(201);
      expect(first.body).toMatchObject({
        id: reportDocId('topic', topic.id),
        target_type: 'topic',
        target_id: topic.id,
        reason: 'spam',
        note: null,
        status: 'open',
      });
      expect(Object.keys(first.body).sort()).toEqual([
        'created_at',
        'id',
        'note',
        'reason',
        'status',
        'target_id',
        'target_type',
        'updated_at',
      ]);
      const second = await report(member, { target_type: 'topic', target_id: topic.id, reason: 'hate', note: '  Look at it  ' });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ reason: 'hate', note: 'Look at it', created_at: first.body.created_at });
      expect((await report(member, { target_type: 'topic', target_id: topic.id, reason: 'hate', note: 'Look at it' })).status).toBe(200);
      // The reported item stays exactly as it was.
      const read = await as().get<Topic>(`/topics/${topic.id}`);
      expect(read.body).toMatchObject({ title: topic.title, moderation: null });
    });

    it('reports a response and a user; refuses your own item, yourself, a missing target and bad input', async () => {
      const topic = await makeTopic(as(author));
      const response = await makeResponse(as(author), { topic_id: topic.id });
      expect((await report(member, { target_type: 'response', target_id: response.id, reason: 'harassment' })).status).toBe(201);
      expect((await report(member, { target_type: 'user', target_id: author.uid, reason: 'other', note: 'x' })).status).toBe(201);
      for (const body of [
        { target_type: 'topic', target_id: topic.id, reason: 'spam' },
        { target_type: 'response', target_id: response.id, reason: 'spam' },
        { target_type: 'user', target_id: author.uid, reason: 'spam' },
      ]) {
        const own = await report(author, body);
        expect(own.status).toBe(400);
        expect(own.body.error).toBe(MSG.reportOwnItem);
      }
      for (const body of [
        { target_type: 'topic', target_id: 'no-such-topic', reason: 'spam' },
        { target_type: 'response', target_id: 'no-such-response', reason: 'spam' },
        { target_type: 'user', target_id: 'no-such-user', reason: 'spam' },
      ]) {
        const missing = await report(member, body);
        expect(missing.status).toBe(404);
        expect(missing.body.error).toBe(MSG.reportTargetNotFound);
      }
      const noReason = await report(member, { target_type: 'topic', target_id: topic.id, reason: 'boring' });
      expect(noReason.status).toBe(400);
      expect(noReason.body.error).toBe(MSG.reportReasonMissing);
      const longNote = await report(member, { target_type: 'topic', target_id: topic.id, reason: 'spam', note: 'x'.repeat(501) });
      expect(longNote.status).toBe(400);
      expect(longNote.body.error).toBe(MSG.reportNoteTooLong);
      const signedOut = await as().post('/reports', { target_type: 'topic', target_id: topic.id, reason: 'spam' });
      expect(signedOut.status).toBe(401);
      expect(signedOut.body.error).toBe(MSG.loginToReport);
    });

    it("the reporter's pull shows 'handled' once a moderator acts; reporting again reopens it (201); only moderators see who reported", async () => {
      const topic = await makeTopic(as(author));
      expect((await report(member, { target_type: 'topic', target_id: topic.id, reason: 'spam', note: 'mine' })).status).toBe(201);
      const pull = async () =>
        (await as(member).get<PullResponse<ReportDoc>>('/sync/reports/pull?id=&seq=0&limit=1000')).body.documents.find(
          (doc) => doc.id === reportDocId('topic', topic.id),
        )!;
      const before = await pull();
      expect(before).toMatchObject({ status: 'open', reason: 'spam', note: 'mine', _deleted: false });
      expect(JSON.stringify(before)).not.toContain(member.uid);
      // The moderator's queue names the reporter; the item's author reads nothing of it.
      const open = (await queue(mod)).body.items.find((item) => item.target_id === topic.id)!;
      expect(open.reports).toEqual([expect.objectContaining({ reporter_uid: member.uid, reporter_name: 'Member', note: 'mine' })]);
      expect(open.target).toMatchObject({ text: topic.title, link: `/topics/${topic.id}`, author_uid: author.uid, author_role: 'member' });
      const authorView = await as(author).get(`/topics/${topic.id}`);
      expect(authorView.text).not.toContain(member.uid);
      expect((await as(author).get('/sync/reports/pull?id=&seq=0&limit=1000')).body.documents).toEqual([]);

      expect((await act(mod, { action: 'dismiss', target_type: 'topic', target_id: topic.id })).status).toBe(200);
      const after = await pull();
      expect(after.status).toBe('handled');
      expect(after.seq).toBeGreaterThan(before.seq);
      expect((await queue(mod, 'handled')).body.items.some((item) => item.target_id === topic.id)).toBe(true);
      expect((await queue(mod)).body.items.some((item) => item.target_id === topic.id)).toBe(false);
      expect((await report(member, { target_type: 'topic', target_id: topic.id, reason: 'spam' })).status).toBe(201);
      expect((await pull()).status).toBe('open');
    });

    it('a report pushed through sync lands once, through the same rules', async () => {
      const topic = await makeTopic(as(author));
      const doc = {
        id: reportDocId('topic', topic.id),
        target_type: 'topic',
        target_id: topic.id,
        reason: 'misinformation',
        note: null,
        status: 'open',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        seq: 0,
        _deleted: false,
      };
      for (let i = 0; i < 2; i++) {
        const res = await as(member).post<PushResponse<ReportDoc>>('/sync/reports/push', [
          { assumedMasterState: null, newDocumentState: doc },
        ]);
        expect(res.status, res.text).toBe(200);
        expect(res.body.rejected).toEqual([]);
        expect(res.body.conflicts[0]).toMatchObject({ id: doc.id, status: 'open', reason: 'misinformation' });
      }
      expect((await queue(mod)).body.items.find((item) => item.target_id === topic.id)!.reporters).toBe(1);
      const own = await as(author).post<PushResponse<ReportDoc>>('/sync/reports/push', [{ newDocumentState: doc }]);
      expect(own.body.rejected[0]).toMatchObject({ status: 400, error: MSG.reportOwnItem });
    });
  });

  describe('auto-hide', () => {
    it('hides an item once enough distinct reporters with standing report it, and it tops the queue', async () => {
      const threshold = MODERATION_DEFAULTS.autoHideReports;
      const topic = await makeTopic(as(author));
      const response = await makeResponse(as(author), { topic_id: topic.id, content: 'A claim that draws reports' });
      // Reporters without standing (new accounts) never hide it, however many.
      for (const reporter of reporters) {
        expect((await report(reporter, { target_type: 'response', target_id: response.id, reason: 'spam' })).status).toBe(201);
      }
      expect((await as().get<Response>(`/responses/${response.id}`)).body).toMatchObject({ content: response.content, moderation: null });
      // With standing: threshold − 1 leave it as it was; the threshold-th hides it.
      const second = await makeResponse(as(author), { topic_id: topic.id, content: 'Another claim' });
      for (const reporter of reporters) await giveStanding(reporter);
      for (const [i, reporter] of reporters.slice(0, threshold).entries()) {
        await report(reporter, { target_type: 'response', target_id: second.id, reason: 'hate' });
        const read = (await as().get<Response>(`/responses/${second.id}`)).body;
        if (i < threshold - 1) expect(read).toMatchObject({ content: 'Another claim', moderation: null });
        else expect(read).toMatchObject({ content: MSG.hiddenPendingReview, moderation: 'hidden' });
      }
      const top = (await queue(mod)).body.items[0]!;
      expect(top).toMatchObject({ target_id: second.id, reporters: threshold });
      expect(top.target).toMatchObject({ text: 'Another claim', moderation: 'hidden', link: `/topics/${topic.id}#response-${second.id}` });
      const log = (await as(mod).get<ModerationLogPage>('/moderation/log')).body.items;
      expect(log.find((entry) => entry.target_id === second.id)).toMatchObject({ action: 'hide', moderator_uid: null });
      // The other response (reported by the same people before they had standing) is hidden only now, at a new report.
      await report(reporters[0]!, { target_type: 'response', target_id: response.id, reason: 'hate' });
      expect((await as().get<Response>(`/responses/${response.id}`)).body.moderation).toBe('hidden');
      // Dismissing the reports un-hides it.
      expect((await act(mod, { action: 'dismiss', target_type: 'response', target_id: second.id })).status).toBe(200);
      expect((await as().get<Response>(`/responses/${second.id}`)).body).toMatchObject({ content: 'Another claim', moderation: null });
    });

    /** `count` new accounts, known to the server. */
    const newAccounts = async (name: string, count: number) => {
      const users = await Promise.all(Array.from({ length: count }, (_, i) => createTestUser(`${name} ${i}`)));
      for (const user of users) expect((await as(user).get('/users/preferences')).status).toBe(200);
      return users;
    };
    /** Accounts with standing (upvoted by the vouchers), made `apart` days apart (0: all the same day). */
    const trustedReporters = async (name: string, count: number, apart = 0) => {
      const users = await newAccounts(name, count);
      for (const [i, user] of users.entries()) await giveStanding(user, STANDING_MIN_AGE_DAYS + 1 + i * apart);
      return users;
    };
    const moderationOf = async (type: 'topic' | 'response', id: string) =>
      (await as().get<{ moderation: string | null }>(`/${type}s/${id}`)).body.moderation;
    const logOf = async (id: string) =>
      (await as(admin).get<ModerationLogPage>('/moderation/log?limit=100')).body.items.filter((e) => e.target_id === id);

    it('three sleeper accounts that upvote each other to standing hide nothing, and moderators are alerted', async () => {
      const threshold = MODERATION_DEFAULTS.autoHideReports;
      const sleepers = await newAccounts('Sleeper', threshold);
      const topic = await makeTopic(as(author));
      const own = new Map<TestUser, string[]>();
      for (const sleeper of sleepers) {
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await makeResponse(as(sleeper), { topic_id: topic.id })).id);
        own.set(sleeper, ids);
      }
      for (const voter of sleepers)
        for (const [owner, ids] of own) if (owner !== voter) for (const id of ids) await upvote(as(voter), 'response', id);
      for (const sleeper of sleepers) await age(sleeper);
      // Each has the points and the age of standing, on paper.
      for (const sleeper of sleepers) {
        const points = (await as().get<{ points: number }>(`/users/${sleeper.uid}`)).body.points;
        expect(points).toBeGreaterThanOrEqual(STANDING_MIN_POINTS);
      }
      const target = await makeResponse(as(author), { topic_id: topic.id, content: 'A fair point the ring dislikes' });
      for (const sleeper of sleepers)
        expect((await report(sleeper, { target_type: 'response', target_id: target.id, reason: 'spam' })).status).toBe(201);
      expect((await as().get<Response>(`/responses/${target.id}`)).body).toMatchObject({ content: target.content, moderation: null });
      // The accounts were made within minutes of each other: the log tells moderators, naming no reporter.
      const alert = (await logOf(target.id)).find((entry) => entry.action === 'alert');
      expect(alert).toMatchObject({ moderator_uid: null, target_type: 'response' });
      expect(alert!.reason).toContain(`${threshold} reporters`);
      for (const sleeper of sleepers) expect(alert!.reason).not.toContain(sleeper.uid);
      expect((await logOf(target.id)).some((entry) => entry.action === 'hide')).toBe(false);
    });

    it("never hides a moderator's or an admin's item; the same reporters hide a member's", async () => {
      const group = await trustedReporters('Trusted', MODERATION_DEFAULTS.autoHideReports, 3);
      const topic = await makeTopic(as(author));
      const ofAdmin = await makeResponse(as(admin), { topic_id: topic.id });
      const ofMod = await makeResponse(as(mod), { topic_id: topic.id });
      const ofMember = await makeResponse(as(member), { topic_id: topic.id });
      for (const reporter of group)
        for (const id of [ofAdmin.id, ofMod.id, ofMember.id])
          await report(reporter, { target_type: 'response', target_id: id, reason: 'hate' });
      expect(await moderationOf('response', ofAdmin.id)).toBeNull();
      expect(await moderationOf('response', ofMod.id)).toBeNull();
      expect(await moderationOf('response', ofMember.id)).toBe('hidden');
      // Accounts made days apart are no alert.
      expect((await logOf(ofMember.id)).map((entry) => entry.action)).toEqual(['hide']);
      const adminTopic = await makeTopic(as(admin));
      const more = await trustedReporters('Trusted more', autoHideReporters('topic', MODERATION_DEFAULTS.autoHideReports), 3);
      for (const reporter of more) await report(reporter, { target_type: 'topic', target_id: adminTopic.id, reason: 'spam' });
      expect(await moderationOf('topic', adminTopic.id)).toBeNull();
    });

    it('a topic needs more reporters than a response', async () => {
      const threshold = MODERATION_DEFAULTS.autoHideReports;
      const forTopic = autoHideReporters('topic', threshold);
      expect(forTopic).toBeGreaterThan(threshold);
      const group = await trustedReporters('Topic reporter', forTopic, 2);
      const topic = await makeTopic(as(author));
      for (const [i, reporter] of group.entries()) {
        await report(reporter, { target_type: 'topic', target_id: topic.id, reason: 'off-topic' });
        expect(await moderationOf('topic', topic.id), `after ${i + 1} reports`).toBe(i + 1 < forTopic ? null : 'hidden');
      }
    });

    it('one reporter takes part in at most AUTO_HIDES_PER_REPORTER_PER_DAY auto-hides a day', async () => {
      const group = await trustedReporters('Busy reporter', MODERATION_DEFAULTS.autoHideReports, 2);
      const topic = await makeTopic(as(author));
      const targets = [];
      for (let i = 0; i <= AUTO_HIDES_PER_REPORTER_PER_DAY; i++) targets.push(await makeResponse(as(author), { topic_id: topic.id }));
      for (const target of targets)
        for (const reporter of group) await report(reporter, { target_type: 'response', target_id: target.id, reason: 'spam' });
      const states = [];
      for (const target of targets) states.push(await moderationOf('response', target.id));
      expect(states).toEqual([...Array<string>(AUTO_HIDES_PER_REPORTER_PER_DAY).fill('hidden'), null]);
      // Other reporters still can: the limit is the reporters', not the item's.
      const fresh = await trustedReporters('Fresh reporter', MODERATION_DEFAULTS.autoHideReports, 2);
      const last = targets.at(-1)!;
      for (const reporter of fresh) await report(reporter, { target_type: 'response', target_id: last.id, reason: 'spam' });
      expect(await moderationOf('response', last.id)).toBe('hidden');
      // A day later the first ones count again.
      await server.db.run(
        "UPDATE moderation_log SET created_at = ? WHERE action = 'hide' AND moderator_uid IS NULL",
        new Date(Date.now() - 2 * DAY_MS).toISOString(),
      );
      const later = await makeResponse(as(author), { topic_id: topic.id });
      for (const reporter of group) await report(reporter, { target_type: 'response', target_id: later.id, reason: 'spam' });
      expect(await moderationOf('response', later.id)).toBe('hidden');
    });
  });

  it('the log names what each action was about: the topic, the response (its author’s own text) and its topic, the user', async () => {
    const named = await createTestUser('Named Member');
    expect((await as(named).get('/users/preferences')).status).toBe(200);
    const topic = await makeTopic(as(named), { title: 'Should the log name its targets?' });
    const response = await makeResponse(as(named), { topic_id: topic.id, content: 'A reply the moderator will remove' });

    const removed = await act(mod, { action: 'remove', target_type: 'response', target_id: response.id, reason: 'Off topic' });
    expect(removed.status, removed.text).toBe(200);
    // The answer names it already; the text readers see is the removal notice, the log keeps the author's.
    expect(removed.body).toMatchObject({ target_name: 'A reply the moderator will remove', target_topic_id: topic.id });
    expect((await act(mod, { action: 'lock', target_type: 'topic', target_id: topic.id })).body).toMatchObject({
      target_name: 'Should the log name its targets?',
      target_topic_id: null,
    });
    expect((await act(mod, { action: 'suspend', target_type: 'user', target_id: named.uid, days: 1 })).body).toMatchObject({
      target_name: 'Named Member',
    });

    const log = (await as(mod).get<ModerationLogPage>('/moderation/log?limit=10')).body.items;
    const about = (id: string) => log.find((entry) => entry.target_id === id);
    expect(about(response.id)).toMatchObject({
      action: 'remove',
      target_name: 'A reply the moderator will remove',
      target_topic_id: topic.id,
    });
    expect(about(topic.id)).toMatchObject({ action: 'lock', target_name: 'Should the log name its targets?', target_topic_id: null });
    expect(about(named.uid)).toMatchObject({ action: 'suspend', target_name: 'Named Member', target_topic_id: null });
    expect((await act(mod, { action: 'unsuspend', target_type: 'user', target_id: named.uid })).status).toBe(200);
  });

  it("acting from the item's own page needs no report; a user's standing is read by moderators only", async () => {
    const person = await createTestUser('Unreported');
    expect((await as(person).get('/users/preferences')).status).toBe(200);
    const topic = await makeTopic(as(person));
    const response = await makeResponse(as(person), { topic_id: topic.id });
    const standing = (user?: TestUser, uid = person.uid) => as(user).get<ModeratedUser & { error?: string }>(`/moderation/users/${uid}`);
    expect((await standing(mod)).body).toEqual({
      uid: person.uid,
      display_name: 'Unreported',
      role: 'member',
      suspended_until: null,
      suspension_reason: null,
    });
    // Nobody reported any of these: each action still lands, and the log says so.
    for (const body of [
      { action: 'lock', target_type: 'topic', target_id: topic.id },
      { action: 'remove', target_type: 'response', target_id: response.id },
      { action: 'suspend', target_type: 'user', target_id: person.uid, days: 3 },
    ]) {
      const done = await act(mod, body);
      expect(done.status, done.text).toBe(200);
      expect(done.body).toMatchObject({ action: body.action, target_id: body.target_id });
    }
    const suspended = (await standing(admin)).body;
    expect(suspended.suspension_reason).toBe('Rule 1');
    expect(Date.parse(suspended.suspended_until!) - Date.now()).toBeGreaterThan(2 * DAY_MS);
    const log = (await as(mod).get<ModerationLogPage>('/moderation/log?limit=3')).body.items;
    expect(log.map((entry) => entry.target_id)).toEqual([person.uid, response.id, topic.id]);
    // A suspension that has ended is none.
    await server.db.run('UPDATE users SET suspended_until = ? WHERE uid = ?', new Date(Date.now() - DAY_MS).toISOString(), person.uid);
    expect((await standing(mod)).body).toMatchObject({ suspended_until: null, suspension_reason: null });

    const signedOut = await standing(undefined);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error).toBe(MSG.loginToModerate);
    const asMember = await standing(member);
    expect(asMember.status).toBe(403);
    expect(asMember.body.error).toBe(MSG.moderatorsOnly);
    const missing = await standing(mod, 'no-such-user');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(MSG.userNotFound);
  });

  describe('authorization', () => {
    it('signed out: 401 on every moderation route; members: 403', async () => {
      const topic = await makeTopic(as(author));
      const calls = (user?: TestUser) => [
        as(user).get('/moderation/reports'),
        act(user, { action: 'remove', target_type: 'topic', target_id: topic.id }),
        as(user).get('/moderation/log'),
      ];
      for (const res of await Promise.all(calls())) {
        expect(res.status).toBe(401);
        expect(res.body.error).toBe(MSG.loginToModerate);
      }
      expect((await as().get(`/moderation/original/topic/${topic.id}`)).status).toBe(401);
      expect((await as().put(`/users/${member.uid}/role`, { role: 'moderator' })).status).toBe(401);
      for (const res of await Promise.all(calls(member))) {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe(MSG.moderatorsOnly);
      }
      const notMine = await as(member).get(`/moderation/original/topic/${topic.id}`);
      expect(notMine.status).toBe(403);
      for (const user of [member, mod]) {
        const role = await as(user).put(`/users/${member.uid}/role`, { role: 'moderator' });
        expect(role.status).toBe(403);
        expect(role.body.error).toBe(MSG.adminsOnly);
      }
      expect((await as(mod).get('/moderation/reports')).status).toBe(200);
      expect((await as(admin).get('/moderation/log')).status).toBe(200);
    });

    it('every action: members 403; moderators on a member, not on an admin (403); admins on anyone', async () => {
      const targets = async (owner: TestUser) => {
        const topic = await makeTopic(as(owner));
        const response = await makeResponse(as(owner), { topic_id: topic.id });
        return { topic: topic.id, response: response.id, user: owner.uid };
      };
      const plan: Array<[ModerationAction, 'topic' | 'response' | 'user']> = [
        ['remove', 'topic'],
        ['restore', 'topic'],
        ['remove', 'response'],
        ['restore', 'response'],
        ['dismiss', 'response'],
        ['dismiss', 'user'],
        ['lock', 'topic'],
        ['unlock', 'topic'],
        ['suspend', 'user'],
        ['unsuspend', 'user'],
      ];
      const ofMember = await targets(author);
      const ofAdmin = await targets(admin);
      for (const [action, type] of plan) {
        const body = { action, target_type: type };
        const asMember = await act(member, { ...body, target_id: ofMember[type] });
        expect(asMember.status, `${action} ${type} as a member`).toBe(403);
        const onAdmin = await act(mod, { ...body, target_id: ofAdmin[type] });
        expect(onAdmin.status, `${action} ${type} of an admin as a moderator`).toBe(403);
        expect(onAdmin.body.error).toBe(MSG.cannotActOnAdmin);
        const done = await act(mod, { ...body, target_id: ofMember[type], days: action === 'suspend' ? 2 : undefined });
        expect(done.status, `${action} ${type} as a moderator: ${done.text}`).toBe(200);
        expect(done.body).toMatchObject({ moderator_uid: mod.uid, moderator_name: 'Mod', action, target_type: type, reason: 'Rule 1' });
        const byAdmin = await act(admin, { ...body, target_id: ofAdmin[type] });
        expect(byAdmin.status, `${action} ${type} of an admin as an admin: ${byAdmin.text}`).toBe(200);
      }
      // A moderator's own content is handled like anyone's.
      const ofMod = await targets(mod);
      expect((await act(mod, { action: 'remove', target_type: 'response', target_id: ofMod.response })).status).toBe(200);
      // Wrong target types and missing targets.
      const lockResponse = await act(mod, { action: 'lock', target_type: 'response', target_id: ofMember.response });
      expect(lockResponse.status).toBe(400);
      expect((await act(mod, { action: 'suspend', target_type: 'topic', target_id: ofMember.topic })).status).toBe(400);
      expect((await act(mod, { action: 'remove', target_type: 'user', target_id: ofMember.user })).status).toBe(400);
      expect((await act(mod, { action: 'remove', target_type: 'topic', target_id: 'missing' })).status).toBe(404);
      expect((await act(mod, { action: 'suspend', target_type: 'user', target_id: 'missing-user' })).status).toBe(404);
      expect((await act(mod, { action: 'remove', target_type: 'topic', target_id: ofMember.topic, reason: ' ' })).body.error).toBe(
        MSG.moderationReasonEmpty,
      );
      // The log has every action, newest first.
      const log = await as(mod).get<ModerationLogPage>('/moderation/log?limit=5');
      expect(log.status).toBe(200);
      expect(log.body.items).toHaveLength(5);
      expect(log.body.total).toBeGreaterThanOrEqual(2 * plan.length + 1);
      expect(log.body.items[0]).toMatchObject({ action: 'remove', target_id: ofMod.response });
    });

    it('an admin grants and revokes moderator; an admin cannot be changed; a suspended member is refused the queue', async () => {
      const user = await createTestUser('Candidate');
      expect((await as(user).get('/users/preferences')).status).toBe(200);
      const granted = await as(admin).put(`/users/${user.uid}/role`, { role: 'moderator' });
      expect(granted.status, granted.text).toBe(200);
      expect(granted.body).toEqual({ uid: user.uid, role: 'moderator' });
      await user.refresh();
      expect((await as(user).get('/moderation/reports')).status).toBe(200);
      const profile = (await as(user).get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=1')).body.documents[0]!;
      expect(profile.role).toBe('moderator');
      expect((await as(admin).put(`/users/${user.uid}/role`, { role: 'member' })).status).toBe(200);
      await user.refresh();
      expect((await as(user).get('/moderation/reports')).status).toBe(403);
      expect((await as(admin).put(`/users/${admin.uid}/role`, { role: 'member' })).status).toBe(403);
      expect((await as(admin).put('/users/no-such-user/role', { role: 'moderator' })).status).toBe(404);
      // Known here but deleted from Firebase: 404 too, and nothing changes.
      const gone = await createTestUser('Gone');
      expect((await as(gone).get('/users/preferences')).status).toBe(200);
      await deleteTestUser(gone);
      const goneRole = await as(admin).put(`/users/${gone.uid}/role`, { role: 'moderator' });
      expect(goneRole.status).toBe(404);
      expect(goneRole.body.error).toBe(MSG.userNotFound);
      expect((await as(admin).put(`/users/${user.uid}/role`, { role: 'admin' })).status).toBe(400);
      const log = (await as(admin).get<ModerationLogPage>('/moderation/log')).body.items;
      expect(log[0]).toMatchObject({ action: 'role', target_id: user.uid, reason: 'member', moderator_uid: admin.uid });

      expect((await act(mod, { action: 'suspend', target_type: 'user', target_id: user.uid })).status).toBe(200);
      expect((await as(user).get('/moderation/reports')).status).toBe(403);
      const refused = await report(user, { target_type: 'user', target_id: member.uid, reason: 'spam' });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(suspendedMessage(SUSPENDED_FOR_GOOD, 'Rule 1'));
    });
  });

  describe('locks and suspensions refuse writes, REST and sync push alike', () => {
    it('a locked topic takes no new responses; unlocked, it does again', async () => {
      const topic = await makeTopic(as(author));
      expect((await act(mod, { action: 'lock', target_type: 'topic', target_id: topic.id })).status).toBe(200);
      expect((await as().get<Topic>(`/topics/${topic.id}`)).body.locked).toBe(true);
      const rest = await as(member).post('/responses', { topic_id: topic.id, type: 'for', content: 'Too late' });
      expect(rest.status).toBe(403);
      expect(rest.body.error).toBe(MSG.topicLocked);
      const doc = {
        id: uniqueId('reply'),
        topic_id: topic.id,
        parent_response_id: null,
        quoted_response_id: null,
        type: 'for',
        content: 'Written offline',
        sources: [],
        seq: 0,
        _deleted: false,
      };
      const pushed = await as(member).post<PushResponse<ResponseDoc>>('/sync/responses/push', [{ newDocumentState: doc }]);
      expect(pushed.body.rejected[0]).toMatchObject({ id: doc.id, status: 403, error: MSG.topicLocked });
      expect((await act(mod, { action: 'unlock', target_type: 'topic', target_id: topic.id })).status).toBe(200);
      expect((await as(member).post('/responses', { topic_id: topic.id, type: 'for', content: 'Now' })).status).toBe(201);
    });

    it('a suspended user cannot write, vote, take a stance or report, but may delete their own content and set preferences', async () => {
      const user = await createTestUser('Troll');
      const api = as(user);
      const topic = await makeTopic(api);
      const response = await makeResponse(api, { topic_id: topic.id });
      const other = await makeTopic(as(author));
      const suspended = await act(mod, { action: 'suspend', target_type: 'user', target_id: user.uid, days: 7 });
      expect(suspended.status).toBe(200);
      expect(suspended.body.days).toBe(7);
      const profile = (await api.get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=1')).body.documents[0]!;
      expect(profile.suspension_reason).toBe('Rule 1');
      const message = suspendedMessage(profile.suspended_until!, 'Rule 1');
      expect(message).toContain('until');
      for (const res of [
        await api.post('/topics', { title: 'More', categories: ['Science'] }),
        await api.post('/responses', { topic_id: other.id, type: 'for', content: 'More' }),
        await api.put(`/responses/${response.id}`, { content: 'Edited' }),
        await api.post('/upvotes', { target_type: 'topic', target_id: other.id }),
        await api.put(`/topics/${other.id}/stance`, { stance: 'agree' }),
        await api.post('/reports', { target_type: 'topic', target_id: other.id, reason: 'spam' }),
      ]) {
        expect(res.status, res.text).toBe(403);
        expect(res.body.error).toBe(message);
      }
      const topicDoc = { id: uniqueId('t'), title: 'Offline topic', category: 'Science', seq: 0, _deleted: false };
      const pushed = await api.post<PushResponse<TopicDoc>>('/sync/topics/push', [{ newDocumentState: topicDoc }]);
      expect(pushed.body.rejected[0]).toMatchObject({ status: 403, error: message });
      expect((await api.post('/users/preferences', { receive_weekly_summary: false })).status).toBe(200);
      expect((await api.del(`/responses/${response.id}`)).status).toBe(204);
      // Unsuspended, they write again.
      expect((await act(mod, { action: 'unsuspend', target_type: 'user', target_id: user.uid })).status).toBe(200);
      expect((await api.post('/responses', { topic_id: other.id, type: 'for', content: 'Back' })).status).toBe(201);
    });

    it('a suspended moderator cannot act until unsuspended (an admin suspends them)', async () => {
      const deputy = await createTestUser('Deputy');
      await setTestUserRole(deputy, 'moderator');
      expect((await as(deputy).get('/users/preferences')).status).toBe(200); // known to the server
      const topic = await makeTopic(as(author));
      expect((await act(admin, { action: 'suspend', target_type: 'user', target_id: deputy.uid, days: 1 })).status).toBe(200);
      const refused = await act(deputy, { action: 'lock', target_type: 'topic', target_id: topic.id });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/^Your account is suspended until \d{4}-\d\d-\d\d: Rule 1$/);
      expect((await as(author).get<{ locked: boolean }>(`/topics/${topic.id}`)).body.locked).toBe(false);
      expect((await act(admin, { action: 'unsuspend', target_type: 'user', target_id: deputy.uid })).status).toBe(200);
      expect((await act(deputy, { action: 'lock', target_type: 'topic', target_id: topic.id })).status).toBe(200);
    });

    it('a suspended user cannot follow a topic (REST and sync push), and may still unfollow', async () => {
      const user = await createTestUser('Follower');
      const api = as(user);
      const kept = await makeTopic(as(author));
      expect((await api.put(`/follows/${kept.id}`)).status).toBe(200);
      const topic = await makeTopic(as(author));
      expect((await act(mod, { action: 'suspend', target_type: 'user', target_id: user.uid, days: 3 })).status).toBe(200);
      const profile = (await api.get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=1')).body.documents[0]!;
      const message = suspendedMessage(profile.suspended_until!, 'Rule 1');
      const rest = await api.put(`/follows/${topic.id}`);
      expect(rest.status, rest.text).toBe(403);
      expect(rest.body.error).toBe(message);
      const doc = {
        id: topic.id,
        topic_id: topic.id,
        title: null,
        following: true,
        updated_at: new Date().toISOString(),
        seq: 0,
        _deleted: false,
      };
      const pushed = await api.post<PushResponse<FollowDoc>>('/sync/follows/push', [{ assumedMasterState: null, newDocumentState: doc }]);
      expect(pushed.body.rejected[0]).toMatchObject({ id: topic.id, status: 403, error: message });
      const follows = (await api.get<FollowedTopic[]>('/follows')).body.map((follow) => follow.topic_id);
      expect(follows).toEqual([kept.id]);
      expect((await api.del(`/follows/${kept.id}`)).status).toBe(204);
    });

    it('a suspended moderator is a member for the queue, the log and originals: 403, no reporter named', async () => {
      const deputy = await createTestUser('Suspended deputy');
      await setTestUserRole(deputy, 'moderator');
      expect((await as(deputy).get('/users/preferences')).status).toBe(200);
      const topic = await makeTopic(as(author));
      expect((await report(member, { target_type: 'topic', target_id: topic.id, reason: 'spam' })).status).toBe(201);
      expect((await as(deputy).get('/moderation/reports')).status).toBe(200);
      expect((await act(admin, { action: 'suspend', target_type: 'user', target_id: deputy.uid, days: 1 })).status).toBe(200);
      for (const path of [
        '/moderation/reports',
        '/moderation/reports?status=handled',
        '/moderation/log',
        `/moderation/original/topic/${topic.id}`,
      ]) {
        const res = await as(deputy).get(path);
        expect(res.status, path).toBe(403);
        expect(res.body.error).toBe(MSG.moderatorsOnly);
        expect(res.text).not.toContain(member.uid);
      }
      expect((await act(admin, { action: 'unsuspend', target_type: 'user', target_id: deputy.uid })).status).toBe(200);
      expect((await as(deputy).get('/moderation/log')).status).toBe(200);
    });

    it('a removed or hidden item cannot be edited by its author', async () => {
      const topic = await makeTopic(as(author));
      const response = await makeResponse(as(author), { topic_id: topic.id });
      expect((await act(mod, { action: 'remove', target_type: 'response', target_id: response.id })).status).toBe(200);
      const edit = await as(author).put(`/responses/${response.id}`, { content: 'Sneaky edit' });
      expect(edit.status).toBe(403);
      expect(edit.body.error).toBe(MSG.removedItemReadOnly);
    });
  });
});
