// `npm run mail:weekly`: sends the weekly summary now, for the week up to now (first finishing
// any run a crash left unfinished); `-- --dry-run` prints who would get what and sends nothing.
// Reads the same environment as the server (DATA_DIR, SMTP_URL, PUBLIC_URL, MAIL_SIGNING_KEY…).
import { readConfig } from '../sync-server/src/config.js';
import { subjectFor } from '../sync-server/src/mail/render.js';
import { createMailer } from '../sync-server/src/mail/setup.js';
import { takeMailLease } from '../sync-server/src/mail/lease.js';
import { previewRun, resumeUnfinished, runWeekly, type RunPlan } from '../sync-server/src/mail/weekly.js';
import { openStore } from '../sync-server/src/backend.js';

const dryRun = process.argv.includes('--dry-run');
const config = readConfig();
const store = await openStore(config);
const { deps } = createMailer({ config, store, port: config.port });
const now = deps.clock();
const plan: RunPlan = { id: `manual-${now.toISOString()}`, kind: 'manual', periodEnd: now };

try {
  if (dryRun) {
    for (const run of await store.mail.unfinishedRuns()) console.log(`An unfinished run (${run.id}) would be finished first.`);
    const { run, digests } = await previewRun(deps, plan);
    console.log(
      `Dry run: the weekly summary for ${run.period_start} – ${run.period_end}, via ${deps.transport.kind === 'smtp' ? 'SMTP' : config.mail.outboxDir}:`,
    );
    let mails = 0;
    for (const { recipient, digest } of digests) {
      if (!digest) {
        console.log(`  - ${recipient.email} (${recipient.uid}): nothing new, no mail`);
        continue;
      }
      mails++;
      const moved = digest.rankChange ? `, rank ${digest.rankChange > 0 ? 'up' : 'down'} ${Math.abs(digest.rankChange)}` : '';
      console.log(
        `  ✉ ${recipient.email} (${recipient.uid}): "${subjectFor(digest)}" — ${digest.replies.total} replies, ${digest.points} points (${digest.pointsChange >= 0 ? '+' : ''}${digest.pointsChange}) rank #${digest.rank}${moved}, ${digest.topTopics.length} top topics`,
      );
    }
    console.log(`${mails} of ${digests.length} subscribed users would get a mail. Nothing was sent.`);
  } else {
    // The same lease as the servers' schedulers: never two senders at once (mail/lease.ts).
    const attempt = await takeMailLease(store, { clock: deps.clock, log: deps.log });
    if (!attempt.ok) {
      console.error(`A server is sending the weekly summary right now. Try again after ${attempt.retryAt.toISOString()}.`);
      process.exitCode = 1;
    } else {
      try {
        const sending = { ...deps, stillSending: attempt.lease.held };
        const resumed = await resumeUnfinished(sending);
        const report = await runWeekly(sending, plan);
        const sent = report.sent.length + resumed.reduce((n, r) => n + r.sent.length, 0);
        const failed = report.failed.length + resumed.reduce((n, r) => n + r.failed.length, 0);
        console.log(`Weekly summary: ${sent} sent, ${failed} failed, ${report.skipped} with nothing new.`);
        if (failed > 0) process.exitCode = 1;
      } finally {
        await attempt.lease.release();
      }
    }
  }
} finally {
  deps.transport.close();
  await store.close();
}
