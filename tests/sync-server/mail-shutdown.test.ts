// A shutdown (SIGTERM: main.ts awaits the scheduler's stop()) in the middle of the
// weekly run finishes the mail under way and no more, so the drain is bounded by one send, not a whole
// run; the run stays unfinished and the next start sends the rest, nobody twice. Both engines.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSchedule, slotAfter } from '../../sync-server/src/mail/schedule.js';
import { startMailScheduler } from '../../sync-server/src/mail/scheduler.js';
import { createMailTransport, type MailTransport } from '../../sync-server/src/mail/transport.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser } from '../fixtures/auth.js';
import { startMailTestServer, type MailTestServer } from '../fixtures/mail.js';

const KEY = Buffer.from('shutdown-test-key-0123456789abcdef0123456789', 'utf8');
const schedule = parseSchedule('MON 08:00');
let server: MailTestServer;
let outbox: string;

beforeAll(async () => {
  server = await startMailTestServer({ signingKey: KEY });
  outbox = mkdtempSync(join(tmpdir(), 'crux-outbox-'));
  // Ada and Cy each get a reply from Bob: two mails in the week's run.
  const [ada, bob, cy] = await Promise.all([createTestUser('Ada Stop'), createTestUser('Bob Stop'), createTestUser('Cy Stop')]);
  for (const owner of [ada, cy]) {
    const topic = await apiClient(server.url, owner.token).post('/topics', {
      title: `Stopped mid-run? ${owner.name}`,
      categories: ['Other'],
    });
    const reply = await apiClient(server.url, bob.token).post('/responses', { topic_id: topic.body.id, type: 'for', content: 'Yes' });
    expect(reply.status).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(outbox, { recursive: true, force: true });
});

const mails = () => readdirSync(outbox).filter((name) => name.endsWith('.eml')).length;

describe('stopping the mail scheduler mid-run', () => {
  it('finishes the mail under way, leaves the rest to the next start, and sends nobody twice', async () => {
    const store = await server.openStore();
    const outboxTransport = createMailTransport({ smtpUrl: undefined, outboxDir: outbox });
    const start = (now: Date, transport: MailTransport = outboxTransport) =>
      startMailScheduler({
        store,
        transport,
        schedule,
        signingKey: KEY,
        publicUrl: 'http://127.0.0.1:8080',
        from: 'Crux <no-reply@localhost>',
        clock: () => now,
        log: () => {},
        retry: { attempts: 1, baseDelayMs: 1 },
      });
    // A first start before the slot (slots before a scheduler's first start are not sent).
    const firstStart = new Date();
    const slot = slotAfter(schedule, firstStart);
    const first = start(firstStart);
    await first.idle();
    await first.stop();

    // Back after the slot: the run begins; its first mail is held in the transport while the stop comes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sendStarted!: () => void;
    const sending = new Promise<void>((resolve) => (sendStarted = resolve));
    let sends = 0;
    const gated: MailTransport = {
      kind: 'outbox',
      async send(mail) {
        if (++sends === 1) {
          sendStarted();
          await held;
        }
        return outboxTransport.send(mail);
      },
      close: () => {},
    };
    const afterSlot = new Date(slot.getTime() + 60_000);
    const second = start(afterSlot, gated);
    await sending;
    const stopped = second.stop();
    release();
    await stopped;
    // The mail under way went out; the second did not start.
    expect(sends).toBe(1);
    expect(mails()).toBe(1);
    const run = await store.mail.getRun(slot.toISOString());
    expect(run?.status).not.toBe('done');
    expect((await store.mail.sendsOf(slot.toISOString())).filter((s) => s.status === 'sent')).toHaveLength(1);

    // The next start finishes the run: the other mail, and nobody twice.
    const third = start(new Date(afterSlot.getTime() + 60_000));
    await third.idle();
    await third.stop();
    expect(mails()).toBe(2);
    const sent = (await store.mail.sendsOf(slot.toISOString())).filter((s) => s.status === 'sent').map((s) => s.uid);
    expect(new Set(sent).size).toBe(2);
    expect(await store.mail.getRun(slot.toISOString())).toMatchObject({ status: 'done', sent: 2 });
    outboxTransport.close();
    await store.close();
  }, 60_000);
});
