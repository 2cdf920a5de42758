// Reports: the caller's own, one document per target (id = `{target_type}_{target_id}`,
// reportDocId). Private: pulled, pushed and streamed for the reporter only; moderators read
// reports through /api/moderation. A push (status 'open') reports through the same domain
// operation as POST /api/reports; `status` turns 'handled' on the server when a moderator acts,
// and a push of 'open' again reopens it. Never a tombstone.
import { z } from 'zod';
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES, type ReportTargetType } from '../../../../shared/constants.js';
import { badRequest } from '../../../../shared/errors.js';
import { time, replicated } from '../../../../shared/schemas/answers.js';
import { createReportSchema } from '../../../../shared/schemas/moderation.js';
import type { ReportDoc } from '../../../../shared/sync-protocol.js';
import { createReport, toReport } from '../../domain/reports.js';
import { parse } from '../../http/validate.js';
import type { ReportRow } from '../../store/rows.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase, nullableString } from './push-schema.js';

export function reportDoc(row: ReportRow): ReportDoc {
  return { ...toReport(row), seq: row.seq, _deleted: false };
}

/** The target a report document's id names, or a 400. */
function targetOf(docId: string): { targetType: ReportTargetType; targetId: string } {
  const found = /^(topic|response|user)_(.+)$/s.exec(docId);
  if (!found) throw badRequest('A report id is "topic_<id>", "response_<id>" or "user_<uid>".');
  return { targetType: found[1] as ReportTargetType, targetId: found[2]! };
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({
    id: z.string(),
    target_type: z.enum(REPORT_TARGET_TYPES),
    target_id: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    created_at: time,
    updated_at: time,
    ...replicated,
  })
  .meta({ id: 'ReportDoc', description: "The caller's report of one target (`id` is `{target_type}_{target_id}`)." });

export const reports: CollectionDescriptor<'reports'> = {
  documentSchema,
  privacy: 'private',
  // Values are checked by the REST call's schema in apply; here only the shape a push may use.
  pushSchema: z.looseObject({
    ...docBase,
    target_type: z.string(),
    target_id: z.string(),
    reason: z.string(),
    note: nullableString,
    status: z.string(),
  }),
  pull: async (ctx, scope, from, limit) => (await ctx.store.reports.changesSince(caller(scope).uid, from, limit)).map(reportDoc),
  async load(ctx, user, docId) {
    const { targetType, targetId } = targetOf(docId);
    const row = await ctx.store.reports.get(user.uid, targetType, targetId);
    return row ? reportDoc(row) : null;
  },
  async apply(ctx, user, _master, next) {
    if (next._deleted) throw badRequest('A report cannot be deleted.');
    const { targetType, targetId } = targetOf(next.id);
    if (next.target_type !== targetType || next.target_id !== targetId) throw badRequest('The report id does not match its target.');
    if (next.status !== 'open') throw badRequest('Only a moderator handles a report.');
    const input = parse(createReportSchema, { target_type: targetType, target_id: targetId, reason: next.reason, note: next.note });
    await createReport(ctx, user, input);
  },
  streamEvent: ownerOnly('reports'),
};
