// One batch of the weekly summary. A run is recorded before the first mail (with everyone's
// points as a snapshot) and every mail is recorded as it is sent, so a run interrupted by a
// crash is resumed later and sends only to those not yet served. A failed address is logged
// and recorded, and the batch goes on. Delivery is at least once: a crash between the SMTP
// server's "250 OK" and the record (one SQLite write) would send that one mail again.
import type { Store } from '../store/types.js';
import { buildDigest, MAIL_TOP_TOPICS, pointsSnapshot, type WeeklyDigest } from './digest.js';
import { renderWeeklyMail } from './render.js';
import { WEEK_MS } from './schedule.js';
import { signUnsubscribeToken } from './token.js';
import { metrics } from '../observe/metrics.js';
import { DEFAULT_RETRY, sendWithRetry, type MailTransport, type OutgoingMail, type RetryOptions } from './transport.js';
import type { MailRecipient, MailRun } from '../store/rows.js';
import { isPlainAddress } from './address.js';
import { commonGroundSnapshot } from './needs.js';

export interface MailerDeps {
  store: Store;
  transport: MailTransport;
  signingKey: Buffer;
  /** The app's origin for links (PUBLIC_URL), no trailing slash. */
  publicUrl: string;
  from: string;
  clock: () => Date;
  log: (line: string) => void;
  retry?: RetryOptions;
  /** Called after each mail is recorded (tests stop a batch halfway by throwing here). */
  afterSend?: (uid: string) => void;
  /** Checked before each mail: false once this process lost the weekly lease (mail/lease.ts); the run stays unfinished for the holder. */
  stillSending?: () => boolean;
}

export interface RunPlan {
  id: string;
  kind: MailRun['kind'];
  periodEnd: Date;
}

export interface RunReport {
  runId: string;
  status: 'done' | 'already-done';
  sent: string[];
  failed: string[];
  skipped: number;
}

/** A week back from the end, but never again over a period an earlier run covered. */
async function periodStart(store: Store, end: Date): Promise<string> {
  const weekAgo = new Date(end.getTime() - WEEK_MS).toISOString();
  const last = await store.mail.lastPeriodEnd();
  const start = last && last > weekAgo ? last : weekAgo;
  return start < end.toISOString() ? start : end.toISOString();
}

/** Why a recipient's address never reached the mailer. */
export const REFUSED_ADDRESS = 'not one plain e-mail address; refused before sending';

export function unsubscribeLinks(publicUrl: string, token: string) {
  const query = `token=${encodeURIComponent(token)}`;
  return { page: `${publicUrl}/unsubscribe?${query}`, oneClick: `${publicUrl}/api/unsubscribe?${query}` };
}

export function composeMail(deps: MailerDeps, run: MailRun, digest: WeeklyDigest): OutgoingMail {
  const { recipient } = digest;
  const links = unsubscribeLinks(deps.publicUrl, signUnsubscribeToken(deps.signingKey, recipient.uid, deps.clock()));
  const rendered = renderWeeklyMail(digest, { publicUrl: deps.publicUrl, unsubscribeUrl: links.page });
  return {
    from: deps.from,
    to: recipient.display_name ? `"${recipient.display_name.replace(/["\\\r\n]/g, '')}" <${recipient.email}>` : recipient.email,
    ...rendered,
    headers: {
      // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" to this HTTPS URI, no sign-in.
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'auto-generated',
      'X-Crux-Mail': `weekly-summary; run=${run.id}`,
    },
    fileStem: `${run.period_end.replace(/[:.]/g, '-')}-${recipient.uid}`,
  };
}

/** The run for a plan as it would start now (nothing written): what a dry run shows. */
export async function previewRun(deps: Pick<MailerDeps, 'store' | 'clock'>, plan: RunPlan) {
  const { store } = deps;
  const run: MailRun = (await store.mail.getRun(plan.id)) ?? {
    id: plan.id,
    kind: plan.kind,
    period_start: await periodStart(store, plan.periodEnd),
    period_end: plan.periodEnd.toISOString(),
    status: 'running',
    created_at: deps.clock().toISOString(),
    finished_at: null,
    sent: 0,
    failed: 0,
    skipped: 0,
  };
  const topTopics = await store.mail.topTopics(run.period_start, run.period_end, MAIL_TOP_TOPICS);
  const served = new Set((await store.mail.sendsOf(run.id)).filter((s) => s.status === 'sent').map((s) => s.uid));
  const digests: Array<{ recipient: MailRecipient; digest: WeeklyDigest | null }> = [];
  for (const recipient of await store.mail.recipients()) {
    if (!served.has(recipient.uid)) digests.push({ recipient, digest: await buildDigest(store, run, recipient, topTopics) });
  }
  return { run, digests };
}

/** Starts (or resumes) the run of the plan and sends every mail not yet sent. */
export async function runWeekly(deps: MailerDeps, plan: RunPlan): Promise<RunReport> {
  const { store } = deps;
  let run = await store.mail.getRun(plan.id);
  if (run?.status === 'done') return { runId: plan.id, status: 'already-done', sent: [], failed: [], skipped: 0 };
  if (!run) {
    const recipients: MailRecipient[] = await store.mail.recipients();
    await store.mail.createRun(
      {
        id: plan.id,
        kind: plan.kind,
        period_start: await periodStart(store, plan.periodEnd),
        period_end: plan.periodEnd.toISOString(),
        created_at: deps.clock().toISOString(),
      },
      await pointsSnapshot(store, recipients),
    );
    // What the next run compares with to tell whose side lost common ground (mail/needs.ts).
    await store.mail.saveCommonGround(plan.id, await commonGroundSnapshot(store, recipients));
    run = (await store.mail.getRun(plan.id))!;
    deps.log(`mail: run ${run.id} started for ${run.period_start} – ${run.period_end} (${recipients.length} subscribed)`);
  } else {
    deps.log(`mail: run ${run.id} resumed`);
  }
  return sendRun(deps, run);
}

async function sendRun(deps: MailerDeps, run: MailRun): Promise<RunReport> {
  const { store } = deps;
  const { digests } = await previewRun(deps, { id: run.id, kind: run.kind, periodEnd: new Date(run.period_end) });
  const report: RunReport = { runId: run.id, status: 'done', sent: [], failed: [], skipped: 0 };
  // The run's mails still to send: the queue depth an operator watches (observe/metrics.ts).
  metrics.mailPending.set(digests.filter((d) => d.digest).length);
  for (const { recipient, digest } of digests) {
    if (!digest) {
      report.skipped++;
      continue;
    }
    if (deps.stillSending && !deps.stillSending())
      throw new Error(`run ${run.id} stopped: the scheduler is stopping, or another process holds the weekly lease`);
    // Checked before the mailer sees it: anything but one plain address is refused,
    // recorded as failed with no attempt, and logged as skipped; the batch goes on.
    const plain = isPlainAddress(recipient.email);
    const mail = plain ? composeMail(deps, run, digest) : null;
    const result = mail
      ? await sendWithRetry(deps.transport, mail, deps.retry ?? DEFAULT_RETRY)
      : ({ ok: false, attempts: 0, error: REFUSED_ADDRESS } as const);
    await store.mail.recordSend({
      run_id: run.id,
      uid: recipient.uid,
      email: recipient.email,
      status: result.ok ? 'sent' : 'failed',
      attempts: result.attempts,
      message_id: result.ok ? result.messageId : null,
      error: result.ok ? null : result.error,
      at: deps.clock().toISOString(),
    });
    metrics.mailPending.dec();
    // The uid, never the address (no e-mail in a log line; mail_sends keeps it for the operator).
    if (result.ok) {
      report.sent.push(recipient.uid);
      metrics.mailSent.inc();
      deps.log(
        `mail: sent run=${run.id} uid=${recipient.uid} attempts=${result.attempts} ${result.file ? `file=${result.file}` : `id=${result.messageId}`}`,
      );
    } else {
      report.failed.push(recipient.uid);
      metrics.mailFailures.inc();
      if (!plain) deps.log(`mail: SKIPPED run=${run.id} uid=${recipient.uid}: ${REFUSED_ADDRESS}`);
      else deps.log(`mail: FAILED run=${run.id} uid=${recipient.uid} attempts=${result.attempts}: ${withoutAddresses(result.error)}`);
    }
    deps.afterSend?.(recipient.uid);
  }
  const sends = await store.mail.sendsOf(run.id);
  const counts = {
    sent: sends.filter((s) => s.status === 'sent').length,
    failed: sends.filter((s) => s.status === 'failed').length,
    skipped: report.skipped,
  };
  metrics.mailPending.set(0);
  await store.mail.finishRun(run.id, deps.clock().toISOString(), counts);
  deps.log(`mail: run ${run.id} done: ${counts.sent} sent, ${counts.failed} failed, ${counts.skipped} with nothing new`);
  return report;
}

/** A mail server's error quotes the address it refused: not in a log line. */
const withoutAddresses = (text: string) => text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]');

/** Finishes every run a crash or a stop left unfinished. */
export async function resumeUnfinished(deps: MailerDeps): Promise<RunReport[]> {
  const reports: RunReport[] = [];
  for (const run of await deps.store.mail.unfinishedRuns()) {
    deps.log(`mail: run ${run.id} resumed`);
    reports.push(await sendRun(deps, run));
  }
  return reports;
}
