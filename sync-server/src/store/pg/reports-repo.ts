// Reports on PostgreSQL: the SQLite repository's queries (store/sqlite/reports-repo.ts).
import type { QueueReportRow, QueueTargetRow, ReportRow } from '../rows.js';
import { REPORT_QUEUE, REPORT_QUEUE_TOTAL, REPORTERS_WITH_STANDING, REPORTS_OF_TARGET, REPORTS_SINCE, SAVE_REPORT } from '../sql.js';
import type { ReportsRepo } from '../types.js';
import type { PgQueries } from './queries.js';

export function createPgReportsRepo(q: PgQueries): ReportsRepo {
  return {
    get: (reporterUid, targetType, targetId) =>
      q.row<ReportRow>('SELECT * FROM reports WHERE reporter_uid = $1 AND target_type = $2 AND target_id = $3', [
        reporterUid,
        targetType,
        targetId,
      ]),
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
      const reporters = (
        await q.rows<{ reporter_uid: string }>(
          "SELECT reporter_uid FROM reports WHERE target_type = $1 AND target_id = $2 AND status = 'open' ORDER BY reporter_uid",
          [targetType, targetId],
        )
      ).map((row) => row.reporter_uid);
      for (const uid of reporters) {
        await q.run("UPDATE reports SET status = 'handled', seq = $1 WHERE reporter_uid = $2 AND target_type = $3 AND target_id = $4", [
          await seq(),
          uid,
          targetType,
          targetId,
        ]);
      }
      return reporters;
    },
    reportersWithStanding: async (targetType, targetId, createdBefore, minPoints) =>
      (await q.row<{ n: number }>(REPORTERS_WITH_STANDING.pg, [targetType, targetId, createdBefore, minPoints]))!.n,
  };
}
