// The weekly schedule survives restarts. A "restart" is a new scheduler (and a new
// connection) on the same SQLite file with the clock moved on: the next run time is the next
// MAIL_SCHEDULE slot, a run already done is never sent again, and a missed week is caught up once.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSchedule, slotAfter } from '../../sync-server/src/mail/schedule.js';
import { startMailScheduler } from '../../sync-server/src/mail/scheduler.js';
import { createMailTransport } from '../../sync-server/src/mail/transport.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser } from '../fixtures/auth.js';
import { startMailTestServer, type MailTestServer } from '../fixtures/mail.js';

const KEY = Buffer.from('scheduler-test-key-0123456789abcdef0123456789', 'utf8');
const DAY = 24 * 60 * 60 * 1000;
const schedule = parseSchedule('MON 08:00');
let server: MailTestServer;
let outbox: string;

beforeAll(async () => {
  server = await startMailTestServer({ signingKey: KEY });
  outbox = mkdtempSync(join(tmpdir(), 'crux-outbox-'));
  const [ada, bob] = await Promise.all([createTestUser('Ada Sched'), createTestUser('Bob Sched')]);
  const topic = await apiClient(server.url, ada.token).post('/topics', { title: 'Scheduled?', categories: ['Other'] });
  expect((await apiClient(server.url, bob.token).post('/responses', { topic_id: topic.body.id, type: 'for', content: 'Yes' })).status).toBe(
    201,
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(outbox, { recursive: true, force: true });
});

/** Starts a scheduler as a fresh process would, at `now`, and waits for its start-up work. */
async function boot(now: Date) {
  const store = await server.openStore();
  const transport = createMailTransport({ smtpUrl: undefined, outboxDir: outbox });
  const scheduler = startMailScheduler({
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
  await scheduler.idle();
  const next = scheduler.nextRunAt();
  await scheduler.stop();
  transport.close();
  const runs = (await store.mail.unfinishedRuns()).length;
  await store.close();
  return { next, unfinished: runs };
}

const mails = () => readdirSync(outbox).length;

describe('mail scheduler', () => {
  it('keeps its next run time over restarts, never sends a week twice, and catches a missed week up once', async () => {
    // The first start is two days before the coming slot, whatever the real clock says, so
    // "an hour later" can never cross the slot (a run on a Monday at 07:30 once did).
    const firstSlot = slotAfter(schedule, new Date());
    const firstStart = new Date(firstSlot.getTime() - 2 * DAY);
    expect(slotAfter(schedule, firstStart).toISOString()).toBe(firstSlot.toISOString());

    // First start: nothing is due yet (slots before the first start are not "missed").
    expect((await boot(firstStart)).next.toISOString()).toBe(firstSlot.toISOString());
    expect(mails()).toBe(0);
    // A restart an hour later, still before the slot: same next run, nothing sent.
    expect((await boot(new Date(firstStart.getTime() + 60 * 60 * 1000))).next.toISOString()).toBe(firstSlot.toISOString());
    expect(mails()).toBe(0);

    // Down over the slot, back a day later: the missed week runs once, and the next is a week on.
    const afterSlot = new Date(firstSlot.getTime() + DAY);
    const caughtUp = await boot(afterSlot);
    expect(caughtUp.next.toISOString()).toBe(new Date(firstSlot.getTime() + 7 * DAY).toISOString());
    expect(caughtUp.unfinished).toBe(0);
    expect(mails()).toBe(1);
    expect(await server.store.mail.getRun(firstSlot.toISOString())).toMatchObject({
      kind: 'scheduled',
      status: 'done',
      sent: 1,
      period_end: firstSlot.toISOString(),
    });

    // Restarted again the same week: nothing is sent twice.
    await boot(new Date(afterSlot.getTime() + 60 * 1000));
    expect(mails()).toBe(1);

    // Down for three weeks: one catch-up run (the latest slot), not three.
    const later = new Date(firstSlot.getTime() + 3 * 7 * DAY + 2 * DAY);
    const resumed = await boot(later);
    expect(resumed.next.toISOString()).toBe(new Date(firstSlot.getTime() + 4 * 7 * DAY).toISOString());
    const scheduledRuns = await Promise.all(
      [1, 2, 3].map((w) => server.store.mail.getRun(new Date(firstSlot.getTime() + w * 7 * DAY).toISOString())),
    );
    expect(scheduledRuns.map((r) => r?.status)).toEqual([undefined, undefined, 'done']);
    // Nothing new happened in that week, so it sent nothing.
    expect(mails()).toBe(1);
  });
});
