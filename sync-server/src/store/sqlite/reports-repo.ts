// Reports: one per reporter and target; each reporter's own pull, and the moderators' queue.
import type { ReportStatus, ReportTargetType } from '../../../../shared/constants.js';
import type { Db } from './connection.js';
import type { AutoHideReporterRow, AutoHideRules, Checkpoint, QueueReportRow, QueueTargetRow, ReportRow } from '../rows.js';
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

export function createReportsRepo(db: Db) {
  const get = db.prepare<[string, string, string], ReportRow>(GET_REPORT.sqlite);
  const save = db.prepare<ReportRow>(SAVE_REPORT.sqlite);
  const since = db.prepare<{ uid: string; seq: number; id: string; limit: number }, ReportRow>(REPORTS_SINCE.sqlite);
  const queue = db.prepare<{ status: ReportStatus; limit: number; offset: number }, QueueTargetRow>(REPORT_QUEUE.sqlite);
  const queueTotal = db.prepare<{ status: ReportStatus }, { n: number }>(REPORT_QUEUE_TOTAL.sqlite);
  const ofTarget = db.prepare<[string, string, string], QueueReportRow>(REPORTS_OF_TARGET.sqlite);
  const openReporters = db.prepare<[string, string], { reporter_uid: string }>(OPEN_REPORTERS.sqlite);
  const handle = db.prepare<[number, string, string, string]>(MARK_REPORT_HANDLED.sqlite);
  const withStanding = db.prepare<[string, string, string, number], { n: number }>(REPORTERS_WITH_STANDING.sqlite);
  const autoHide = db.prepare<AutoHideRules & { type: string; id: string }, AutoHideReporterRow>(AUTO_HIDE_REPORTERS.sqlite);

  return {
    get: (reporterUid: string, targetType: ReportTargetType, targetId: string) => get.get(reporterUid, targetType, targetId),
    save: (row: ReportRow) => void save.run(row),
    changesSince: (reporterUid: string, checkpoint: Checkpoint, limit: number) =>
      since.all({ uid: reporterUid, seq: checkpoint.seq, id: checkpoint.id, limit }),
    queue: (status: ReportStatus, limit: number, offset: number) => queue.all({ status, limit, offset }),
    queueTotal: (status: ReportStatus) => queueTotal.get({ status })!.n,
    forTarget: (targetType: ReportTargetType, targetId: string, status: ReportStatus) => ofTarget.all(targetType, targetId, status),
    async markHandled(targetType: ReportTargetType, targetId: string, seq: () => Promise<number>): Promise<string[]> {
      const reporters = openReporters.all(targetType, targetId).map((row) => row.reporter_uid);
      for (const uid of reporters) handle.run(await seq(), uid, targetType, targetId);
      return reporters;
    },
    reportersWithStanding: (targetType: ReportTargetType, targetId: string, createdBefore: string, minPoints: number) =>
      withStanding.get(targetType, targetId, createdBefore, minPoints)!.n,
    autoHideReporters: (targetType: 'topic' | 'response', targetId: string, rules: AutoHideRules) =>
      autoHide.all({ ...rules, type: targetType, id: targetId }),
  };
}
