// /api/reports (issue 23 #2): a signed-in user reports a topic, a response or a user.
// 201 for a new report (or a handled one reopened), 200 for the update of the caller's open report.
import { Hono } from 'hono';
import { MSG } from '../../../shared/messages.js';
import { createReportSchema } from '../../../shared/schemas/moderation.js';
import type { DomainContext } from '../domain/context.js';
import { createReport } from '../domain/reports.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { readJson } from '../http/validate.js';

export function reportsRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const user = requireUser(c, MSG.loginToReport);
    const { report, created } = await createReport(ctx, user, await readJson(c, createReportSchema));
    return c.json(report, created ? 201 : 200);
  });
}
