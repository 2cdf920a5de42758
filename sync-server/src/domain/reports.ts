// Reports: any signed-in user reports a topic, a response or a user; one report
// per reporter and target (again: an update, or a reopening once handled). One code path for
// POST /api/reports and the `reports` push. A reported item stays as it was, unless enough
// reporters with standing report it: then it is hidden pending review (moderation.ts hideItem).
import type { AuthUser } from '../auth/verifier.js';
import { MODERATION_DEFAULTS, type ReportTargetType } from '../../../shared/constants.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
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
  if (input.target_type !== 'user') changes.push(...(await autoHide(ctx, input.target_type, input.target_id, now)));
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
 * The automatic first line: an item reported by at least AUTO_HIDE_REPORTS distinct
 * reporters with standing (shared/rules/standing.ts, counted now) is hidden pending review, once.
 */
async function autoHide(ctx: DomainContext, type: 'topic' | 'response', id: string, now: string): Promise<Change[]> {
  const { store } = ctx;
  const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
  if (!row || row.deleted || row.moderation !== null) return [];
  const createdBefore = new Date(Date.parse(now) - STANDING_MIN_AGE_DAYS * DAY_MS).toISOString();
  const reporters = await store.reports.reportersWithStanding(type, id, createdBefore, STANDING_MIN_POINTS);
  // AUTO_HIDE_REPORTS (config.ts readModerationLimits): applies even with MODERATION_LIMITS=off.
  if (reporters < (ctx.moderation?.autoHideReports ?? MODERATION_DEFAULTS.autoHideReports)) return [];
  const changes = await hideItem(ctx, type, id, 'hidden', null);
  await store.moderation.log({
    id: ctx.newId(),
    moderator_uid: null,
    action: 'hide',
    target_type: type,
    target_id: id,
    reason: `Reported by ${reporters} people with standing`,
    days: null,
    created_at: now,
  });
  return changes;
}
