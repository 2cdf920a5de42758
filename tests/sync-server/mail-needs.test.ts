// The weekly mail names what needs the reader, from a seeded week over the real server
// and a real SMTP peer (smtp-server), on the lane's engine: rebuttals awaiting their answer (not the
// one they answered), their challenged claim without a source (not the sourced one), and the next
// week the topic where their side lost common ground; a week with nothing new still sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeeklyDigest } from '../../sync-server/src/mail/digest.js';
import { subjectFor } from '../../sync-server/src/mail/render.js';
import { createMailTransport } from '../../sync-server/src/mail/transport.js';
import { runWeekly, type MailerDeps } from '../../sync-server/src/mail/weekly.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { parseMime, partOf, startMailTestServer, startSmtpSink, type MailTestServer, type SmtpSink } from '../fixtures/mail.js';

const KEY = Buffer.from('test-signing-key-0123456789abcdef0123456789', 'utf8');
const PUBLIC_URL = 'https://crux.example';

let ada: TestUser; // the reader: stands agree, writes two claims
let bob: TestUser; // stands disagree, argues against both claims
let cy: TestUser; // stands agree
let dee: TestUser; // stands disagree; takes an upvote back in week 2
let eve: TestUser; // writes the common-ground response of Ada's side
let smtp: SmtpSink;
let server: MailTestServer;

beforeAll(async () => {
  [ada, bob, cy, dee, eve, smtp] = await Promise.all([
    createTestUser('Ada Needs'),
    createTestUser('Bob Needs'),
    createTestUser('Cy Needs'),
    createTestUser('Dee Needs'),
    createTestUser('Eve Needs'),
    startSmtpSink(),
  ]);
  server = await startMailTestServer({ signingKey: KEY });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);
const post = async (user: TestUser, path: string, body: unknown) => {
  const res = await as(user).post<{ id: string }>(path, body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
};
const stand = async (user: TestUser, topicId: string, stance: string) =>
  expect((await as(user).put(`/topics/${topicId}/stance`, { stance })).status).toBe(200);

function deps(): MailerDeps {
  return {
    store: server.store,
    transport: createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' }),
    signingKey: KEY,
    publicUrl: PUBLIC_URL,
    from: 'Crux <no-reply@crux.example>',
    clock: () => new Date(),
    log: () => {},
    retry: { attempts: 3, baseDelayMs: 1, sleep: async () => {} },
  };
}

/** Runs a week ending now and answers the mails it sent, by recipient address. */
async function week(id: string) {
  smtp.received.length = 0;
  const mailer = deps();
  const report = await runWeekly(mailer, { id, kind: 'manual', periodEnd: new Date(Date.now() + 10) });
  mailer.transport.close();
  await new Promise((resolve) => setTimeout(resolve, 20)); // the next week starts after this one's end
  const mails = new Map(smtp.received.map((m) => [m.to[0]!, parseMime(m.raw)]));
  return { report, mails };
}

/** The plain-text section that starts with `heading`, up to the blank line that ends it. */
const section = (text: string, heading: string) => {
  const start = text.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  return text.slice(start).split(/\r?\n\r?\n/)[0]!;
};

describe('weekly mail: needs', () => {
  it('names rebuttals awaiting an answer, challenged claims without a source, then lost common ground', { timeout: 90_000 }, async () => {
    const topic = await post(bob, '/topics', { title: 'Should cities ban cars from centres?', categories: ['Society'] });
    await stand(ada, topic.id, 'agree');
    await stand(cy, topic.id, 'agree');
    await stand(bob, topic.id, 'disagree');
    await stand(dee, topic.id, 'disagree');
    const bare = await post(ada, '/responses', { topic_id: topic.id, type: 'for', content: 'Shops on car-free streets sell more.' });
    const sourced = await post(ada, '/responses', {
      topic_id: topic.id,
      type: 'for',
      content: 'Air quality improves within a year.',
      sources: [{ url: 'https://example.org/air-study' }],
    });
    await post(bob, '/responses', { topic_id: topic.id, parent_response_id: bare.id, type: 'against', content: 'Only in tourist towns.' });
    const answered = await post(bob, '/responses', {
      topic_id: topic.id,
      parent_response_id: sourced.id,
      type: 'against',
      content: 'Traffic just moves elsewhere.',
    });
    await post(ada, '/responses', { topic_id: topic.id, parent_response_id: answered.id, type: 'against', content: 'Not with transit.' });
    // Eve's "for" response is common ground: 2 of 2 on each side upvote it.
    const common = await post(eve, '/responses', { topic_id: topic.id, type: 'for', content: 'Delivery hours can be kept.' });
    for (const voter of [ada, cy, bob, dee]) await post(voter, '/upvotes', { target_type: 'response', target_id: common.id });

    const first = await week('needs-week-1');
    const mail = first.mails.get(ada.email)!;
    expect(mail, 'Ada gets a mail').toBeDefined();
    expect(mail.headers.get('subject')).toBe('Your week on Crux: 2 new replies, 1 rebuttal awaiting your answer');
    const text = partOf(mail, 'text/plain')!.body;
    expect(text).toContain('REBUTTALS AWAITING YOUR ANSWER (1)');
    expect(text).toContain(
      'Bob Needs argues against your "Shops on car-free streets sell more." in "Should cities ban cars from centres?":',
    );
    expect(text).toContain('"Only in tourist towns."');
    expect(section(text, 'REBUTTALS AWAITING')).not.toContain('Traffic just moves elsewhere.'); // answered: not awaiting
    expect(text).toContain('YOUR CHALLENGED CLAIMS THAT CITE NO SOURCE');
    expect(text).toContain('- "Shops on car-free streets sell more."');
    expect(text).toContain('Challenged once; a source would answer it.');
    expect(section(text, 'YOUR CHALLENGED CLAIMS')).not.toContain('Air quality'); // it cites a source
    expect(text).not.toContain('WHERE YOUR SIDE LOST COMMON GROUND'); // no earlier week to compare with
    const html = partOf(mail, 'text/html')!.body;
    expect(html).toContain('Rebuttals awaiting your answer (1)');
    expect(html).toContain('Your challenged claims that cite no source');
    expect(html).toContain(`href="${PUBLIC_URL}/topics/${topic.id}"`);

    // Week 2: Dee takes her upvote back, so Eve's response is no longer common ground.
    const del = await as(dee).del('/upvotes', { target_type: 'response', target_id: common.id });
    expect(del.status).toBe(204);
    const second = await week('needs-week-2');
    expect(second.mails.get(ada.email)!.headers.get('subject')).toBe('Your week on Crux: 1 rebuttal awaiting your answer');
    const next = partOf(second.mails.get(ada.email)!, 'text/plain')!.body;
    expect(next).toContain('WHERE YOUR SIDE LOST COMMON GROUND');
    expect(next).toContain('- Should cities ban cars from centres?: Common-ground responses on your side: 1 → 0.');
    expect(next).toContain('REBUTTALS AWAITING YOUR ANSWER (1)'); // still awaiting
    expect(next).not.toContain('YOUR CHALLENGED CLAIMS'); // no new challenge this week
    // Bob stands on the other side: his side ("against") had no common ground to lose.
    expect(second.mails.has(bob.email)).toBe(false);
    expect(partOf(second.mails.get(ada.email)!, 'text/html')!.body).toContain('Where your side lost common ground');

    // Week 3: only the old rebuttal still awaits; nothing new, so nobody gets a mail.
    const third = await week('needs-week-3');
    expect(third.report.sent).toEqual([]);
    expect(third.mails.size).toBe(0);
  });
});

describe('weekly mail: the subject names the needs when nothing louder is there', () => {
  const base = {
    recipient: { uid: 'u', email: 'u@example.org', display_name: null },
    periodStart: '2026-11-16T08:00:00.000Z',
    periodEnd: '2026-11-23T08:00:00.000Z',
    replies: { total: 0, items: [] },
    points: 0,
    rank: 1,
    pointsChange: 0,
    rankChange: null,
    topTopics: [],
  } as unknown as WeeklyDigest;
  const needs = (over: Partial<WeeklyDigest['needs']>): WeeklyDigest['needs'] => ({
    rebuttals: { total: 0, items: [] },
    unsourced: [],
    lostCommonGround: [],
    ...over,
  });
  const claim = { id: 'r', topic_id: 't', topic_title: 'T', content: 'c', challenges: 1, last_at: '2026-11-20T00:00:00.000Z' };
  const lost = { topic_id: 't', topic_title: 'T', before: 2, now: 1 };

  it.each([
    [needs({ rebuttals: { total: 2, items: [] } }), 'Your week on Crux: 2 rebuttals awaiting your answer'],
    [needs({ unsourced: [claim, claim] }), 'Your week on Crux: 2 challenged claims to back with a source'],
    [needs({ lostCommonGround: [lost] }), 'Your week on Crux: your side lost common ground on 1 topic'],
    [needs({ unsourced: [claim], lostCommonGround: [lost] }), 'Your week on Crux: 1 challenged claim to back with a source'],
  ])('%#: %s', (digestNeeds, subject) => {
    expect(subjectFor({ ...base, needs: digestNeeds })).toBe(subject);
  });
});
