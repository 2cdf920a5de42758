// The weekly mail is sent once whichever server processes run the schedule. Each
// "process" here is a scheduler with its own connection to the same database; the weekly lease
// (mail/lease.ts) lets one send, and a holder that dies mid-batch is taken over once its lease ends.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEASE_KEY, takeMailLease } from '../../sync-server/src/mail/lease.js';
import { parseSchedule, slotAfter } from '../../sync-server/src/mail/schedule.js';
import { startMailScheduler } from '../../sync-server/src/mail/scheduler.js';
import { createMailTransport, type MailTransport } from '../../sync-server/src/mail/transport.js';
import { runWeekly } from '../../sync-server/src/mail/weekly.js';
import type { Store } from '../../sync-server/src/store/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser } from '../fixtures/auth.js';
import { startMailTestServer, type MailTestServer } from '../fixtures/mail.js';

const KEY = Buffer.from('lease-test-key-0123456789abcdef0123456789abcdef', 'utf8');
const DAY = 24 * 60 * 60 * 1000;
const schedule = parseSchedule('MON 08:00');
let server: MailTestServer;
const dirs: string[] = [];
const outbox = () => {
  const dir = mkdtempSync(join(tmpdir(), 'crux-lease-outbox-'));
  dirs.push(dir);
  return dir;
};

// Each test on its own database: three authors, each with a reply by Bob (three mails due).
beforeEach(async () => {
  server = await startMailTestServer({ signingKey: KEY });
  const authors = await Promise.all([1, 2, 3].map((n) => createTestUser(`Lease Author ${n}`)));
  const bob = await createTestUser('Lease Bob');
  for (const author of authors) {
    const topic = await apiClient(server.url, author.token).post('/topics', { title: `Who sends ${author.name}?`, categories: ['Other'] });
    const reply = await apiClient(server.url, bob.token).post('/responses', { topic_id: topic.body.id, type: 'for', content: 'One of us' });
    expect(reply.status).toBe(201);
  }
}, 60_000);
afterEach(async () => {
  await server?.stop();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every mail handed to a mail server by any process (outbox files are named per run and recipient: a second send would overwrite). */
const delivered: string[] = [];

/** A server process's scheduler: its own connection, its own clock. */
async function processAt(now: Date, dir: string, { slowMs = 0 }: { slowMs?: number } = {}) {
  const store = await server.openStore();
  const outboxTransport = createMailTransport({ smtpUrl: undefined, outboxDir: dir });
  // A slow mail server: each mail takes slowMs, so another process can wake in the middle of a batch.
  const transport: MailTransport = {
    ...outboxTransport,
    send: async (mail) => {
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      delivered.push(mail.to);
      return outboxTransport.send(mail);
    },
  };
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
  return {
    store,
    scheduler,
    async stop() {
      await scheduler.stop();
      transport.close();
      await store.close();
    },
  };
}

describe('the weekly lease', () => {
  it('a second process waking in the middle of a batch: every mail is sent once, by the first', async () => {
    const start = new Date();
    const slot = slotAfter(schedule, start);
    const dir = outbox();
    delivered.length = 0;
    // Both start before the slot (the schedule begins), then both wake a day after it at once.
    for (const p of [await processAt(start, dir), await processAt(start, dir)]) {
      await p.scheduler.idle();
      await p.stop();
    }
    const later = new Date(slot.getTime() + DAY);
    const a = await processAt(later, dir, { slowMs: 150 });
    while (readdirSync(dir).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // Without the lease, this one would resume the running batch and send its remaining mails too.
    const b = await processAt(later, dir);
    await Promise.all([a.scheduler.idle(), b.scheduler.idle()]);
    expect(readdirSync(dir)).toHaveLength(3);
    expect(delivered).toHaveLength(3);
    expect(new Set(delivered).size).toBe(3);
    // The second found the lease taken: it looks again when that lease would end, not a week later.
    expect(b.scheduler.nextRunAt().getTime()).toBeLessThan(slotAfter(schedule, later).getTime());
    expect(await server.store.mail.getRun(slot.toISOString())).toMatchObject({ status: 'done', sent: 3 });
    expect(await server.store.mail.unfinishedRuns()).toEqual([]);
    // The lease is given back: nobody holds it once the work is done.
    expect(await server.store.mail.getState(LEASE_KEY)).toBeUndefined();
    await Promise.all([a.stop(), b.stop()]);
  });

  it('is refused while held, taken over once it expires, and a holder that lost it stops sending', async () => {
    let now = new Date('2030-01-07T09:00:00.000Z');
    const clock = () => now;
    const one = await server.openStore();
    const two = await server.openStore();
    const first = await takeMailLease(one, { clock, leaseMs: 60_000 });
    expect(first.ok).toBe(true);
    const refused = await takeMailLease(two, { clock, leaseMs: 60_000 });
    expect(refused).toEqual({ ok: false, retryAt: new Date(now.getTime() + 60_000) });

    // The first holder stalls past its lease: the second takes over.
    now = new Date(now.getTime() + 61_000);
    const second = await takeMailLease(two, { clock, leaseMs: 60_000 });
    expect(second.ok).toBe(true);
    if (!first.ok || !second.ok) throw new Error('unreachable');

    // The stalled holder knows its lease ran out: its sending stops at the next mail, the run stays for the holder.
    const dir = outbox();
    const transport = createMailTransport({ smtpUrl: undefined, outboxDir: dir });
    const deps = (store: Store, stillSending: () => boolean) => ({
      store,
      transport,
      signingKey: KEY,
      publicUrl: 'http://127.0.0.1:8080',
      from: 'Crux <no-reply@localhost>',
      clock: () => new Date(),
      log: () => {},
      retry: { attempts: 1, baseDelayMs: 1 },
      stillSending,
    });
    const plan = { id: 'lease-takeover', kind: 'manual' as const, periodEnd: new Date(Date.now() + 1000) };
    expect(first.lease.held()).toBe(false);
    expect(second.lease.held()).toBe(true);
    await expect(runWeekly(deps(one, first.lease.held), plan)).rejects.toThrow(/another process holds the weekly lease/);
    expect(readdirSync(dir)).toHaveLength(0);
    expect(await runWeekly(deps(two, second.lease.held), plan)).toMatchObject({ status: 'done' });
    expect(readdirSync(dir)).toHaveLength(3);

    // Releasing a lease someone else holds changes nothing; the holder's release frees it.
    await first.lease.release();
    expect(await two.mail.getState(LEASE_KEY)).toBeDefined();
    await second.lease.release();
    expect(await two.mail.getState(LEASE_KEY)).toBeUndefined();
    transport.close();
    await Promise.all([one.close(), two.close()]);
  });
});
