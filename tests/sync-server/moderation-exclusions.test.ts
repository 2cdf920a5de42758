// What a removal means in the sitemap and the weekly mail: a topic with moderation
// set (removed, or hidden pending review) is not in /sitemap.xml, and the weekly mail mentions no
// moderated topic or response, not even by its replacement text ("Removed by a moderator: …"):
// not as a reply, not as the topic or response replied to, not among the top topics. The removal
// itself is another part's (the moderators' actions): here the rows are set as a removal leaves
// them (moderation, reason, the live text replaced), directly in the test database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, removedByModerator } from '../../shared/messages.js';
import { createMailTransport } from '../../sync-server/src/mail/transport.js';
import { runWeekly } from '../../sync-server/src/mail/weekly.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { parseMime, partOf, startMailTestServer, startSmtpSink, type MailTestServer, type SmtpSink } from '../fixtures/mail.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import type { TestDb } from '../fixtures/test-db.js';

const REASON = 'Insults are not arguments';

/** Sets the row as a moderator's removal (or the automatic hide) leaves it. */
async function moderate(db: TestDb, table: 'topics' | 'responses', id: string, state: 'removed' | 'hidden') {
  const text = state === 'removed' ? removedByModerator(REASON) : MSG.hiddenPendingReview;
  const column = table === 'topics' ? 'title' : 'content';
  await db.run(
    `UPDATE ${table} SET moderation = ?, moderation_reason = ?, ${column} = ?, seq = ? WHERE id = ?`,
    state,
    state === 'removed' ? REASON : null,
    text,
    (await db.seq()) + 1,
    id,
  );
}

describe('the sitemap lists no moderated topic', () => {
  let server: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    [server, ada] = await Promise.all([startTestServer(), createTestUser('Ada Sitemap')]);
  });
  afterAll(() => server?.stop());

  it('a removed or hidden topic is not in /sitemap.xml; the others are', async () => {
    const api = apiClient(server.url, ada.token);
    const post = async (title: string) => (await api.post('/topics', { title, categories: ['Science'] })).body.id as string;
    const [kept, removed, hidden] = [await post('Is the sky blue?'), await post('A rude topic'), await post('A reported topic')];
    await moderate(server.db, 'topics', removed, 'removed');
    await moderate(server.db, 'topics', hidden, 'hidden');
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`/topics/${kept}</loc>`);
    expect(xml).not.toContain(removed);
    expect(xml).not.toContain(hidden);
  });
});

describe('the weekly mail includes no moderated topic or response', () => {
  const KEY = Buffer.from('exclusions-signing-key-0123456789abcdef0123', 'utf8');
  let server: MailTestServer;
  let smtp: SmtpSink;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    [server, smtp, ada, bob] = await Promise.all([
      startMailTestServer({ signingKey: KEY }),
      startSmtpSink(),
      createTestUser('Ada Weekly'),
      createTestUser('Bob Weekly'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('only the live reply in a live topic reaches the mail', { timeout: 60_000 }, async () => {
    const as = (user: TestUser) => apiClient(server.url, user.token);
    const topic = async (title: string) => (await as(ada).post('/topics', { title, categories: ['Society'] })).body.id as string;
    const respond = async (user: TestUser, body: Record<string, unknown>) => {
      const res = await as(user).post('/responses', { type: 'for', ...body });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const live = await topic('A live topic about trams');
    const removedTopic = await topic('A topic that gets removed');
    const hiddenTopic = await topic('A topic hidden pending review');
    await respond(bob, { topic_id: live, content: 'A visible reply about trams' });
    const removedReply = await respond(bob, { topic_id: live, content: 'An insulting reply' });
    const hiddenReply = await respond(bob, { topic_id: live, content: 'A reported reply' });
    await respond(bob, { topic_id: removedTopic, content: 'A reply in the removed topic' });
    await respond(bob, { topic_id: hiddenTopic, content: 'A reply in the hidden topic' });
    const removedParent = await respond(ada, { topic_id: live, content: "Ada's response that gets removed" });
    await respond(bob, { topic_id: live, parent_response_id: removedParent, content: 'A reply to the removed response' });
    // Bob's upvotes would put the moderated topics first among the top topics.
    for (const id of [removedTopic, hiddenTopic]) {
      expect((await as(bob).post('/upvotes', { target_type: 'topic', target_id: id, target_creator_uid: ada.uid })).status).toBeLessThan(
        300,
      );
    }
    const db = await server.openDb();
    try {
      await moderate(db, 'topics', removedTopic, 'removed');
      await moderate(db, 'topics', hiddenTopic, 'hidden');
      await moderate(db, 'responses', removedReply, 'removed');
      await moderate(db, 'responses', hiddenReply, 'hidden');
      await moderate(db, 'responses', removedParent, 'removed');
    } finally {
      await db.close();
    }

    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    const report = await runWeekly(
      {
        store: server.store,
        transport,
        signingKey: KEY,
        publicUrl: 'https://crux.example',
        from: 'Crux <no-reply@crux.example>',
        clock: () => new Date(),
        log: () => {},
        retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
      },
      { id: 'exclusions', kind: 'manual', periodEnd: new Date(Date.now() + 1000) },
    );
    transport.close();
    expect(report.sent).toEqual([ada.uid]);
    const mail = smtp.received.find((received) => received.to.includes(ada.email))!;
    const parsed = parseMime(mail.raw);
    for (const body of [partOf(parsed, 'text/plain')!.body, partOf(parsed, 'text/html')!.body]) {
      expect(body).toContain('A visible reply about trams');
      expect(body).toContain('A live topic about trams');
      for (const gone of [
        'Removed by a moderator',
        MSG.hiddenPendingReview,
        'insulting',
        'reported reply',
        'removed topic',
        'hidden topic',
        'removed response',
        removedTopic,
        hiddenTopic,
      ]) {
        expect(body).not.toContain(gone);
      }
    }
    expect(partOf(parsed, 'text/plain')!.body).toContain('NEW REPLIES (1)');
  });
});
