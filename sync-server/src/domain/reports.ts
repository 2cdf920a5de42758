// Reports: any signed-in user reports a topic, a response or a user; one report
// per reporter and target (again: an update, or a reopening once handled). One code path for
// POST /api/reports and the `reports` push. A reported item stays as it was, unless enough
// reporters with standing report it: then it is hidden pending review (moderation-items.ts hideItem).
import type { AuthUser } from '../auth/verifier.js';
import { isModerator, MODERATION_DEFAULTS, PERSUASION_POINTS_PER_DELTA, type ReportTargetType } from '../../../shared/constants.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import {
  AUTO_HIDES_PER_REPORTER_PER_DAY,
  autoHideReporters,
  CLOSE_ACCOUNTS_HOURS,
  closeAccounts,
} from '../../../shared/rules/auto-hide.js';
import { STANDING_MIN_AGE_DAYS, STANDING_MIN_POINTS } from '../../../shared/rules/standing.js';
import type { CreateReportInput } from '../../../shared/schemas/moderation.js';
import { reportDocId } from '../../../shared/sync-protocol.js';
import type { Report } from '../../../shared/types.js';
import type { ReportRow } from '../store/rows.js';
import type { Change } from './change-feed.js';
import { nowIso, publish, type DomainContext } from './context.js';
import { assertNotSuspended } from './moderation-rules.js';
import { hideItem } from './moderation-items.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toReport(row: ReportRow): Report {
  return {
    id: reportDocId(row.target_type, row.target_id),
    target_type: row.target_type,
    target_id: row.target_id,
    reason: row.reason,
    note: row.note,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Who wrote the reported item (a user: the user); 404 when there is no such live item or user. */
async function targetAuthor(ctx: DomainContext, type: ReportTargetType, id: string): Promise<string> {
  const { store } = ctx;
  if (type === 'user') {
    if (!(await store.users.get(id))) throw notFound(MSG.reportTargetNotFound);
    return id;
  }
  const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
  if (!row || row.deleted) throw notFound(MSG.reportTargetNotFound);
  return row.creator_uid;
}

/**
 * Records the caller's report (inside the caller's transaction, or its own): `created` is true for
 * a new report or a handled one reopened (201), false for an update of an open one (200).
 */
export async function addReport(
  ctx: DomainContext,
  actor: AuthUser,
  input: CreateReportInput,
): Promise<{ row: ReportRow; created: boolean; changes: Change[] }> {
  const { store } = ctx;
  await assertNotSuspended(ctx, actor.uid);
  const author = await targetAuthor(ctx, input.target_type, input.target_id);
  if (author === actor.uid) throw badRequest(MSG.reportOwnItem);
  const existing = await store.reports.get(actor.uid, input.target_type, input.target_id);
  const now = nowIso(ctx);
  const created = !existing || existing.status === 'handled';
  if (existing && !created && existing.reason === input.reason && existing.note === input.note) {
    return { row: existing, created, changes: [] };
  }
  const row: ReportRow = {
    reporter_uid: actor.uid,
    target_type: input.target_type,
    target_id: input.target_id,
    target_author_uid: author,
    reason: input.reason,
    note: input.note,
    status: 'open',
    created_at: created ? now : existing.created_at,
    updated_at: now,
    seq: await store.nextSeq(),
  };
  await store.reports.save(row);
  const changes: Change[] = [{ collection: 'reports', uid: actor.uid }];
  if (input.target_type !== 'user') changes.push(...(await autoHide(ctx, actor, input.target_type, input.target_id, now, created)));
  return { row, created, changes };
}

export async function createReport(
  ctx: DomainContext,
  actor: AuthUser,
  input: CreateReportInput,
): Promise<{ report: Report; created: boolean }> {
  const { row, created, changes } = await ctx.store.transaction(() => addReport(ctx, actor, input));
  publish(ctx, changes);
  return { report: toReport(row), created };
}

/**
 * The automatic first line (shared/rules/auto-hide.ts): an item is hidden pending review, once, when
 * enough distinct reporters report it (AUTO_HIDE_REPORTS for a response, AUTO_HIDE_TOPIC_FACTOR times
 * that for a topic) whose accounts are old enough and whose standing comes from accounts with standing
 * outside the reporting group, each within AUTO_HIDES_PER_REPORTER_PER_DAY. A moderator's or an admin's
 * item is never hidden so. Reporters whose accounts were made close together are logged as an alert.
 */
async function autoHide(
  ctx: DomainContext,
  actor: AuthUser,
  type: 'topic' | 'response',
  id: string,
  now: string,
  newReport: boolean,
): Promise<Change[]> {
  const { store } = ctx;
  const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
  if (!row || row.deleted || row.moderation !== null) return [];
  // AUTO_HIDE_REPORTS (config.ts readModerationLimits): applies even with MODERATION_LIMITS=off.
  const needed = autoHideReporters(type, ctx.moderation?.autoHideReports ?? MODERATION_DEFAULTS.autoHideReports);
  const createdBefore = new Date(Date.parse(now) - STANDING_MIN_AGE_DAYS * DAY_MS).toISOString();
  const reporters = await store.reports.autoHideReporters(type, id, {
    createdBefore,
    minPoints: STANDING_MIN_POINTS,
    perDelta: PERSUASION_POINTS_PER_DELTA,
    since: new Date(Date.parse(now) - DAY_MS).toISOString(),
  });
  const changes: Change[] = [];
  const close = closeAccounts(reporters.map((reporter) => reporter.created_at));
  const closeBefore = closeAccounts(reporters.filter((reporter) => reporter.uid !== actor.uid).map((reporter) => reporter.created_at));
  // Logged by the report that makes the group, once: the moderators read it in the log, with the item.
  if (newReport && close >= needed && closeBefore < needed) {
    await logAutomatic(
      ctx,
      'alert',
      type,
      id,
      now,
      `Reported by ${close} reporters whose accounts were made within ${CLOSE_ACCOUNTS_HOURS} hours of each other: perhaps one person.`,
    );
  }
  const counted = reporters.filter(
    (reporter) =>
      reporter.created_at <= createdBefore &&
      reporter.vouched_points >= STANDING_MIN_POINTS &&
      reporter.recent_hides < AUTO_HIDES_PER_REPORTER_PER_DAY,
  ).length;
  if (counted < needed) return changes;
  if (isModerator((await store.users.get(row.creator_uid))?.role ?? 'member')) return changes;
  changes.push(...(await hideItem(ctx, type, id, 'hidden', null)));
  await logAutomatic(ctx, 'hide', type, id, now, `Reported by ${counted} people with standing`);
  return changes;
}

/** A log entry of the server's own (moderator_uid null). */
async function logAutomatic(
  ctx: DomainContext,
  action: 'hide' | 'alert',
  type: 'topic' | 'response',
  id: string,
  now: string,
  reason: string,
): Promise<void> {
  await ctx.store.moderation.log({
    id: ctx.newId(),
    moderator_uid: null,
    action,
    target_type: type,
    target_id: id,
    reason,
    days: null,
    created_at: now,
  });
}
