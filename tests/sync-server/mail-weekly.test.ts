// The weekly summary against a real SMTP peer (smtp-server) and in outbox mode, over
// the real server and SQLite with real users from the Auth emulator. Content for a user with
// replies and points (both MIME parts and the headers), nobody opted out or with nothing new,
// one bad address never stops the batch, a crash halfway then a rerun sends only the rest.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMailTransport } from '../../sync-server/src/mail/transport.js';
import { verifyUnsubscribeToken } from '../../sync-server/src/mail/token.js';
import { previewRun, resumeUnfinished, runWeekly, type MailerDeps } from '../../sync-server/src/mail/weekly.js';
import type { Store } from '../../sync-server/src/store/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setEmailVerified, type TestUser } from '../fixtures/auth.js';
import { parseMime, partOf, startMailTestServer, startSmtpSink, type MailTestServer, type SmtpSink } from '../fixtures/mail.js';

const KEY = Buffer.from('test-signing-key-0123456789abcdef0123456789', 'utf8');
const PUBLIC_URL = 'https://crux.example';

let ada: TestUser; // writes a topic and a response; gets replies and points
let bob: TestUser; // replies and upvotes
let cy: TestUser; // gets replies too, but opted out
let dee: TestUser; // subscribed, nothing new
let smtp: SmtpSink;
let server: MailTestServer | undefined;
const logs: string[] = [];

beforeAll(async () => {
  [ada, bob, cy, dee, smtp] = await Promise.all([
    createTestUser('Ada Mail'),
    createTestUser('Bob <b>Mail</b>'),
    createTestUser('Cy Mail'),
    createTestUser('Dee Mail'),
    startSmtpSink(),
  ]);
}, 60_000);
afterAll(() => smtp?.close());
afterEach(async () => {
  await server?.stop();
  server = undefined;
  smtp.received.length = 0;
  logs.length = 0;
});

const as = (user: TestUser) => apiClient(server!.url, () => user.token);

function deps(store: Store, transport: MailerDeps['transport'], extra: Partial<MailerDeps> = {}): MailerDeps {
  return {
    store,
    transport,
    signingKey: KEY,
    publicUrl: PUBLIC_URL,
    from: 'Crux <no-reply@crux.example>',
    clock: () => new Date(),
    log: (line) => logs.push(line),
    retry: { attempts: 3, baseDelayMs: 1, sleep: async () => {} },
    ...extra,
  };
}

/** Ada's topic with Bob's root reply, Ada's response with Bob's reply, Bob's upvotes on both; Cy's topic with a reply. */
async function seedWeek() {
  server = await startMailTestServer({ signingKey: KEY });
  const topic = await as(ada).post('/topics', { title: 'Should cities ban cars from centres?', categories: ['Society'] });
  expect(topic.status, topic.text).toBe(201);
  const topicId = topic.body.id as string;
  const root = await as(ada).post('/responses', { topic_id: topicId, type: 'for', content: 'Walkable centres thrive.' });
  expect(root.status, root.text).toBe(201);
  expect(
    (await as(bob).post('/responses', { topic_id: topicId, type: 'against', content: 'Deliveries need <access> & "roads".' })).status,
  ).toBe(201);
  expect(
    (
      await as(bob).post('/responses', {
        topic_id: topicId,
        parent_response_id: root.body.id,
        type: 'neutral',
        content: 'Depends on *transit*, see [the plan](https://example.org/plan) and [this](javascript:alert(1)).',
      })
    ).status,
  ).toBe(201);
  expect((await as(bob).post('/upvotes', { target_type: 'topic', target_id: topicId, target_creator_uid: ada.uid })).status).toBeLessThan(
    300,
  );
  expect(
    (await as(bob).post('/upvotes', { target_type: 'response', target_id: root.body.id, target_creator_uid: ada.uid })).status,
  ).toBeLessThan(300);
  const cyTopic = await as(cy).post('/topics', { title: 'Is remote work here to stay?', categories: ['Economics'] });
  expect((await as(bob).post('/responses', { topic_id: cyTopic.body.id, type: 'for', content: 'Yes.' })).status).toBe(201);
  expect((await as(cy).post('/users/preferences', { receive_weekly_summary: false })).status).toBe(200);
  expect((await as(dee).get('/users/preferences')).status).toBe(200);
  return { topicId };
}

function checkAdaMail(raw: string, topicId: string) {
  const mail = parseMime(raw);
  expect(mail.headers.get('subject')).toBe('Your week on Crux: 2 new replies, +2 points');
  expect(mail.headers.get('to')).toContain(ada.email);
  expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  const listUnsubscribe = mail.headers.get('list-unsubscribe')!;
  const oneClick = /^<(https:\/\/crux\.example\/api\/unsubscribe\?token=([^>]+))>$/.exec(listUnsubscribe);
  expect(oneClick, listUnsubscribe).not.toBeNull();
  const token = decodeURIComponent(oneClick![2]!);
  expect(verifyUnsubscribeToken(KEY, token, new Date())).toEqual({ ok: true, uid: ada.uid });
  expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/);

  const text = partOf(mail, 'text/plain')!.body;
  expect(text).toContain('Hi Ada Mail,');
  expect(text).toContain('NEW REPLIES (2)');
  expect(text).toContain('Bob <b>Mail</b> disagrees on your topic "Should cities ban cars from centres?"');
  expect(text).toContain('"Deliveries need <access> & "roads"."');
  expect(text).toContain('Bob <b>Mail</b> responds on your response');
  // The text part keeps the Markdown as written.
  expect(text).toContain('"Depends on *transit*, see [the plan](https://example.org/plan) and [this](javascript:alert(1))."');
  expect(text).toContain('You have 2 points and rank #1. +2 points this week.');
  expect(text).toContain(`${PUBLIC_URL}/topics/${topicId}`);
  expect(text).toContain("THIS WEEK'S TOP TOPICS");
  expect(text).toContain(`Unsubscribe: ${PUBLIC_URL}/unsubscribe?token=`);

  const html = partOf(mail, 'text/html')!.body;
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(html).toContain('max-width:600px');
  expect(html).toContain('New replies (2)');
  // User text is escaped, never markup.
  expect(html).toContain('Bob &lt;b&gt;Mail&lt;/b&gt; disagrees on your topic');
  expect(html).toContain('Deliveries need &lt;access&gt; &amp; &quot;roads&quot;.');
  expect(html).not.toContain('<b>Mail</b>');
  // A reply's formatting, by the app's renderer: emphasis, a safe link with its rel; an unsafe one is its text.
  expect(html).toContain(
    'Depends on <em>transit</em>, see <a href="https://example.org/plan" rel="nofollow ugc noopener" target="_blank">the plan</a> and this.',
  );
  expect(html).not.toContain('javascript:');
  expect(html).toContain(`href="${PUBLIC_URL}/topics/${topicId}"`);
  expect(html).toContain(`href="${PUBLIC_URL}/unsubscribe?token=`);
  expect(html).toContain('You have 2 points and rank #1.');
  expect(html).toContain('+2 points this week.');
}

describe('weekly summary over SMTP', () => {
  it('sends the summary with both parts and the one-click headers; nobody opted out or with nothing new', { timeout: 60_000 }, async () => {
    const { topicId } = await seedWeek();
    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    const report = await runWeekly(deps(server!.store, transport), {
      id: 'manual-a',
      kind: 'manual',
      periodEnd: new Date(Date.now() + 1000),
    });
    transport.close();

    expect(report.sent).toEqual([ada.uid]);
    expect(report.failed).toEqual([]);
    // Bob (upvoted nothing of his own, no replies) and Dee have nothing new; Cy opted out.
    expect(report.skipped).toBe(2);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual([ada.email]);
    expect(smtp.received.some((m) => m.to.includes(cy.email) || m.to.includes(dee.email))).toBe(false);
    checkAdaMail(smtp.received[0]!.raw, topicId);
    // The line names the uid, never the address.
    expect(logs.some((l) => l.startsWith('mail: sent run=manual-a') && l.includes(ada.uid))).toBe(true);
    expect(logs.filter((l) => l.includes(ada.email))).toEqual([]);

    // The same run again (a restart) sends nothing twice.
    const again = await runWeekly(deps(server!.store, transport), { id: 'manual-a', kind: 'manual', periodEnd: new Date() });
    expect(again.status).toBe('already-done');
    expect(smtp.received).toHaveLength(1);
  });

  it('next week says how points and rank moved, and covers only what is new', { timeout: 60_000 }, async () => {
    const { topicId } = await seedWeek();
    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    await runWeekly(deps(server!.store, transport), { id: 'week-1', kind: 'manual', periodEnd: new Date(Date.now() + 10) });
    smtp.received.length = 0;
    await new Promise((r) => setTimeout(r, 20));
    // Dee upvotes Ada's topic: one more point; nothing else new.
    expect((await as(dee).post('/upvotes', { target_type: 'topic', target_id: topicId, target_creator_uid: ada.uid })).status).toBeLessThan(
      300,
    );
    const report = await runWeekly(deps(server!.store, transport), {
      id: 'week-2',
      kind: 'manual',
      periodEnd: new Date(Date.now() + 1000),
    });
    transport.close();
    expect(report.sent).toEqual([ada.uid]);
    const mail = parseMime(smtp.received[0]!.raw);
    expect(mail.headers.get('subject')).toBe('Your week on Crux: +1 point');
    const text = partOf(mail, 'text/plain')!.body;
    expect(text).toContain('You have 3 points and rank #1. +1 point this week.');
    expect(text).not.toContain('NEW REPLIES');
  });

  it('one bad address never stops the batch; a transient refusal is retried with backoff', { timeout: 60_000 }, async () => {
    await seedWeek();
    // Everyone gets something new: Ada as before; Dee through a reply from Bob.
    const deeTopic = await as(dee).post('/topics', { title: 'Tea or coffee?', categories: ['Culture'] });
    expect((await as(bob).post('/responses', { topic_id: deeTopic.body.id, type: 'for', content: 'Tea.' })).status).toBe(201);
    const [first, second] = [ada, dee].sort((a, b) => a.uid.localeCompare(b.uid));
    smtp.refuse(first!.email, { code: 550 });
    smtp.refuse(second!.email, { code: 451, times: 1 });
    const waits: number[] = [];
    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    const report = await runWeekly(
      deps(server!.store, transport, { retry: { attempts: 3, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) } }),
      { id: 'bad-address', kind: 'manual', periodEnd: new Date(Date.now() + 1000) },
    );
    transport.close();
    expect(report.failed).toEqual([first!.uid]);
    expect(report.sent).toEqual([second!.uid]);
    // The permanent 550 was not retried; the 451 was, after the first backoff step.
    expect(waits).toEqual([100]);
    expect(smtp.received.map((m) => m.to)).toEqual([[second!.email]]);
    expect(logs.some((l) => l.startsWith('mail: FAILED run=bad-address') && l.includes(first!.uid))).toBe(true);
    // A log line names the uid, never the address (not even quoted in the mail server's refusal).
    expect(logs.filter((l) => l.includes(first!.email) || l.includes(second!.email))).toEqual([]);
    const sends = await server!.store.mail.sendsOf('bad-address');
    expect(sends.map((s) => [s.uid, s.status, s.attempts]).sort()).toEqual(
      [
        [first!.uid, 'failed', 1],
        [second!.uid, 'sent', 2],
      ].sort(),
    );
    expect(await server!.store.mail.getRun('bad-address')).toMatchObject({ status: 'done', sent: 1, failed: 1 });
  });
});

describe('weekly summary to verified addresses only', () => {
  it(
    'mails a verified address, never an unverified one, and never hands the mailer anything but one plain address',
    { timeout: 60_000 },
    async () => {
      const [unverified, verified, odd] = await Promise.all([
        createTestUser('Uma Unverified', { emailVerified: false }),
        createTestUser('Vic Verified'),
        createTestUser('Odd Address'),
      ]);
      server = await startMailTestServer({ signingKey: KEY });
      // Each has something new: a reply from Bob on their topic.
      for (const user of [unverified, verified, odd]) {
        const topic = await as(user).post('/topics', { title: `A topic by ${user.name}`, categories: ['Culture'] });
        expect(topic.status, topic.text).toBe(201);
        expect((await as(bob).post('/responses', { topic_id: topic.body.id, type: 'for', content: 'Agreed.' })).status).toBe(201);
      }
      // An address that got past the identity provider but is not one plain address.
      const db = await server.openDb();
      const list = `${odd.email}, victim@example.org`;
      await db.run('UPDATE users SET email = ? WHERE uid = ?', list, odd.uid);
      expect(await db.row('SELECT email_verified FROM users WHERE uid = ?', unverified.uid)).toEqual({ email_verified: 0 });
      expect(await db.row('SELECT email_verified FROM users WHERE uid = ?', verified.uid)).toEqual({ email_verified: 1 });
      await db.close();

      const smtpTransport = createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
      const handed: string[] = [];
      const transport: MailerDeps['transport'] = { ...smtpTransport, send: (mail) => (handed.push(mail.to), smtpTransport.send(mail)) };
      const report = await runWeekly(deps(server.store, transport), {
        id: 'verified-only',
        kind: 'manual',
        periodEnd: new Date(Date.now() + 1000),
      });
      smtpTransport.close();
      expect(report.sent).toContain(verified.uid);
      expect(report.sent).not.toContain(unverified.uid);
      expect(report.failed).toEqual([odd.uid]);
      const to = smtp.received.flatMap((m) => m.to);
      expect(to).toContain(verified.email);
      expect(to).not.toContain(unverified.email);
      expect(to).not.toContain('victim@example.org');
      expect(handed.some((address) => address.includes('victim@example.org') || address.includes(unverified.email))).toBe(false);
      expect(logs.some((l) => l.startsWith('mail: SKIPPED run=verified-only') && l.includes(odd.uid))).toBe(true);
      expect((await server.store.mail.sendsOf('verified-only')).find((s) => s.uid === odd.uid)).toMatchObject({
        status: 'failed',
        attempts: 0,
      });

      // Verified later: the next token carries the claim, and the next run has them among its recipients.
      await setEmailVerified(unverified.uid, true);
      await unverified.refresh();
      expect((await as(unverified).get('/users/preferences')).status).toBe(200);
      expect((await server.store.mail.recipients()).map((r) => r.uid)).toContain(unverified.uid);
    },
  );
});

describe('weekly summary in outbox mode', () => {
  let outbox: string;
  beforeAll(() => {
    outbox = mkdtempSync(join(tmpdir(), 'crux-outbox-'));
  });
  afterAll(() => rmSync(outbox, { recursive: true, force: true }));

  it('writes one .eml per mail that parses to the same content', { timeout: 60_000 }, async () => {
    const { topicId } = await seedWeek();
    const transport = createMailTransport({ smtpUrl: undefined, outboxDir: outbox });
    const report = await runWeekly(deps(server!.store, transport), {
      id: 'outbox',
      kind: 'manual',
      periodEnd: new Date(Date.now() + 1000),
    });
    transport.close();
    expect(report.sent).toEqual([ada.uid]);
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`-${ada.uid}\\.eml$`));
    expect(statSync(join(outbox, files[0]!)).mode & 0o777).toBe(0o600);
    checkAdaMail(readFileSync(join(outbox, files[0]!), 'utf8'), topicId);
    expect(smtp.received).toHaveLength(0);
  });

  it('a crash after half a batch, then a rerun, sends only the other half', { timeout: 90_000 }, async () => {
    server = await startMailTestServer({ signingKey: KEY });
    const authors = await Promise.all([1, 2, 3, 4].map((n) => createTestUser(`Author ${n}`)));
    for (const author of authors) {
      const topic = await as(author).post('/topics', { title: `Question ${author.name}`, categories: ['Other'] });
      expect((await as(bob).post('/responses', { topic_id: topic.body.id, type: 'for', content: `Answer to ${author.name}` })).status).toBe(
        201,
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'crux-outbox-'));
    const plan = { id: 'crash', kind: 'manual' as const, periodEnd: new Date(Date.now() + 1000) };
    let sent = 0;
    const crashing = createMailTransport({ smtpUrl: undefined, outboxDir: dir });
    await expect(
      runWeekly(
        deps(server.store, crashing, {
          afterSend: () => {
            if (++sent === 2) throw new Error('simulated crash');
          },
        }),
        plan,
      ),
    ).rejects.toThrow('simulated crash');
    crashing.close();
    expect(readdirSync(dir)).toHaveLength(2);
    expect((await server.store.mail.getRun('crash'))!.status).toBe('running');

    // A restart: a new connection to the same file finishes the unfinished run.
    const reopened = await server.openStore();
    const dryRun = await previewRun({ store: reopened, clock: () => new Date() }, plan);
    expect(dryRun.digests.filter((d) => d.digest).map((d) => d.recipient.uid)).toHaveLength(2);
    const transport = createMailTransport({ smtpUrl: undefined, outboxDir: dir });
    const [report] = await resumeUnfinished(deps(reopened, transport));
    transport.close();
    expect(report!.sent).toHaveLength(2);
    const files = readdirSync(dir);
    expect(files).toHaveLength(4);
    const recipients = files.map((f) => parseMime(readFileSync(join(dir, f), 'utf8')).headers.get('to')!);
    for (const author of authors) expect(recipients.filter((to) => to.includes(author.email))).toHaveLength(1);
    expect(await reopened.mail.getRun('crash')).toMatchObject({ status: 'done', sent: 4, failed: 0 });
    // Nothing is left to resume, and the run itself is done.
    expect(await resumeUnfinished(deps(reopened, transport))).toEqual([]);
    expect((await runWeekly(deps(reopened, transport), plan)).status).toBe('already-done');
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
