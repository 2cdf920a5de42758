// Reports on PostgreSQL: the SQLite repository's queries (store/sqlite/reports-repo.ts).
import type { AutoHideReporterRow, QueueReportRow, QueueTargetRow, ReportRow, ReportsRepo } from '../rows.js';
import {
  GET_REPORT,
  MARK_REPORT_HANDLED,
  OPEN_REPORTERS,
  AUTO_HIDE_REPORTERS,
  REPORTERS_WITH_STANDING,
  REPORTS_OF_TARGET,
  REPORTS_SINCE,
  REPORT_QUEUE,
  REPORT_QUEUE_TOTAL,
  SAVE_REPORT,
} from '../sql.js';
import type { PgQueries } from './queries.js';

export function createPgReportsRepo(q: PgQueries): ReportsRepo {
  return {
    get: (reporterUid, targetType, targetId) => q.row<ReportRow>(GET_REPORT.pg, [reporterUid, targetType, targetId]),
    async save(row) {
      await q.run(SAVE_REPORT.pg, [
        row.reporter_uid,
        row.target_type,
        row.target_id,
        row.target_author_uid,
        row.reason,
        row.note,
        row.status,
        row.created_at,
        row.updated_at,
        row.seq,
      ]);
    },
    changesSince: (reporterUid, checkpoint, limit) =>
      q.rows<ReportRow>(REPORTS_SINCE.pg, [reporterUid, checkpoint.seq, checkpoint.id, limit]),
    queue: (status, limit, offset) => q.rows<QueueTargetRow>(REPORT_QUEUE.pg, [status, limit, offset]),
    queueTotal: async (status) => (await q.row<{ n: number }>(REPORT_QUEUE_TOTAL.pg, [status]))!.n,
    forTarget: (targetType, targetId, status) => q.rows<QueueReportRow>(REPORTS_OF_TARGET.pg, [targetType, targetId, status]),
    async markHandled(targetType, targetId, seq) {
      const reporters = (await q.rows<{ reporter_uid: string }>(OPEN_REPORTERS.pg, [targetType, targetId])).map((row) => row.reporter_uid);
      for (const uid of reporters) {
        await q.run(MARK_REPORT_HANDLED.pg, [await seq(), uid, targetType, targetId]);
      }
      return reporters;
    },
    reportersWithStanding: async (targetType, targetId, createdBefore, minPoints) =>
      (await q.row<{ n: number }>(REPORTERS_WITH_STANDING.pg, [targetType, targetId, createdBefore, minPoints]))!.n,
    // $1..$6 in the order the statement first names them: @createdBefore, @minPoints, @perDelta, @since, @type, @id.
    autoHideReporters: (targetType, targetId, rules) =>
      q.rows<AutoHideReporterRow>(AUTO_HIDE_REPORTERS.pg, [
        rules.createdBefore,
        rules.minPoints,
        rules.perDelta,
        rules.since,
        targetType,
        targetId,
      ]),
  };
}
