// Runs the weekly summary at each MAIL_SCHEDULE slot. What was sent lives in the database, so the
// schedule survives restarts: on start it finishes a run a crash left unfinished, then runs the
// latest slot once if it was missed (only slots since the schedule first ran on this
// database, and only the latest one however many were missed), then sleeps until the next.
// Every server process may run it: the weekly lease (mail/lease.ts) lets one send at a time, and
// one that finds the lease taken tries again when it expires (its holder may have died mid-batch).
import { takeMailLease } from './lease.js';
import { slotAfter, slotAtOrBefore, type Schedule } from './schedule.js';
import { resumeUnfinished, runWeekly, type MailerDeps } from './weekly.js';

export const SINCE_KEY = 'scheduler_since';
/** setTimeout's ceiling (about 24.8 days); a longer wait re-arms on waking. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface MailScheduler {
  /** When the next slot is due. */
  nextRunAt(): Date;
  /** Resolves when the current tick (if any) has finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startMailScheduler(deps: MailerDeps & { schedule: Schedule }): MailScheduler {
  const { store, schedule, clock } = deps;
  const since = store.mail.initState(SINCE_KEY, clock().toISOString());
  let next = slotAfter(schedule, clock());
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function tick() {
    const attempt = await takeMailLease(store, { clock, log: deps.log });
    if (!attempt.ok) {
      // Another process is sending: look again when its lease ends (or at the next slot, if sooner).
      const slot = slotAfter(schedule, clock());
      next = attempt.retryAt < slot ? new Date(attempt.retryAt.getTime() + 1000) : slot;
      return;
    }
    // Stopping (SIGTERM) ends the run after the mail under way, as losing the lease does: the rest
    // is sent when a scheduler next starts (resumeUnfinished), so a shutdown waits for one send, not a whole run.
    const sending: MailerDeps = { ...deps, stillSending: () => !stopped && attempt.lease.held() };
    try {
      await resumeUnfinished(sending);
      const now = clock();
      const due = slotAtOrBefore(schedule, now);
      const id = due.toISOString();
      if (id >= (await since) && !(await store.mail.getRun(id))) await runWeekly(sending, { id, kind: 'scheduled', periodEnd: due });
    } finally {
      await attempt.lease.release();
    }
    next = slotAfter(schedule, clock());
  }

  function arm() {
    if (stopped) return;
    const wait = Math.min(Math.max(next.getTime() - clock().getTime(), 0), MAX_TIMER_MS);
    timer = setTimeout(() => {
      current = current.then(run);
    }, wait);
  }

  const run = () =>
    tick()
      .catch((error: unknown) => deps.log(`mail: the weekly run failed and will be retried at the next start or slot: ${String(error)}`))
      .finally(arm);

  let current: Promise<void> = run();
  deps.log(`mail: weekly summary scheduled; next run at ${next.toISOString()}`);

  return {
    nextRunAt: () => next,
    idle: () => current,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
