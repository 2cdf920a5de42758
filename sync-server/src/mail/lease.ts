// Who sends the weekly mail right now (several server processes on one database).
// Every process may run the schedule; before sending, one takes the lease, a row of
// mail_state holding its id and an expiry, set by compare-and-set so only one can win. It
// renews the lease while it works and gives it back at the end; the others skip that slot.
// If the holder dies, its lease expires and the next process to try resumes the unfinished
// run from its records (mail/weekly.ts), so the batch is finished once, whoever finishes it.
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/types.js';

export const LEASE_KEY = 'weekly_lease';
/** How long a lease holds without renewal: long enough for a slow SMTP retry, short enough to recover. */
export const LEASE_MS = 5 * 60_000;

interface LeaseValue {
  holder: string;
  until: number;
}

function parse(value: string | undefined): LeaseValue | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as Partial<LeaseValue>;
    return typeof parsed.holder === 'string' && typeof parsed.until === 'number' ? { holder: parsed.holder, until: parsed.until } : null;
  } catch {
    return null;
  }
}

export interface MailLease {
  /** Whether this process still holds it: not expired, and no renewal found someone else's. */
  held(): boolean;
  release(): Promise<void>;
}

/** The lease, or when to try again (the current holder's expiry). */
export type LeaseAttempt = { ok: true; lease: MailLease } | { ok: false; retryAt: Date };

/** Takes the lease for a fresh holder id; while held it is renewed every third of its length. */
export async function takeMailLease(
  store: Store,
  options: { clock: () => Date; leaseMs?: number; log?: (line: string) => void },
): Promise<LeaseAttempt> {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const holder = randomUUID();
  const now = () => options.clock().getTime();
  const current = await store.mail.getState(LEASE_KEY);
  const existing = parse(current);
  if (existing && existing.until > now()) return { ok: false, retryAt: new Date(existing.until) };
  let value = JSON.stringify({ holder, until: now() + leaseMs } satisfies LeaseValue);
  // Another process swapped first: it holds the lease now, for about leaseMs.
  if (!(await store.mail.swapState(LEASE_KEY, current ?? null, value))) return { ok: false, retryAt: new Date(now() + leaseMs) };

  let held = true;
  // Past this, another process may have taken over even if no renewal said so yet (a stalled loop).
  let until = now() + leaseMs;
  const renew = async () => {
    const nextUntil = now() + leaseMs;
    const next = JSON.stringify({ holder, until: nextUntil } satisfies LeaseValue);
    if (await store.mail.swapState(LEASE_KEY, value, next)) {
      value = next;
      until = nextUntil;
    } else {
      held = false;
      options.log?.('mail: the weekly lease was taken over by another process; this one stops sending');
    }
  };
  const timer = setInterval(() => {
    if (held) void renew().catch(() => (held = false));
  }, leaseMs / 3);
  timer.unref();
  return {
    ok: true,
    lease: {
      held: () => held && now() < until,
      async release() {
        clearInterval(timer);
        if (held) await store.mail.swapState(LEASE_KEY, value, null);
        held = false;
      },
    },
  };
}
