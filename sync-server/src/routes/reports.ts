// /api/reports: a signed-in user reports a topic, a response or a user.
// 201 for a new report (or a handled one reopened), 200 for the update of the caller's open report.
import { OpenAPIHono } from '@hono/zod-openapi';
import { MSG } from '../../../shared/messages.js';
import { reportSchema } from '../../../shared/schemas/moderation-answers.js';
import { createReportSchema } from '../../../shared/schemas/moderation.js';
import type { DomainContext } from '../domain/context.js';
import { createReport } from '../domain/reports.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

const report = apiRoute({
  method: 'post',
  path: '/',
  tag: 'Moderation',
  summary: 'Report a topic, a response or a user',
  description:
    "One report per reporter and target: `201` for a new report (or a handled one reported again), `200` for the update of the caller's open report. Your own item (or yourself) is `400`; a missing target `404`; a suspended caller `403`. Only moderators ever see reports.",
  auth: 'required',
  body: {
    schema: createReportSchema,
    required: true,
    example: { target_type: 'response', target_id: 'R', reason: 'spam', note: 'Posted ten times' },
  },
  answers: {
    201: { description: 'Reported.', schema: reportSchema },
    200: { description: 'The open report updated.', schema: reportSchema },
  },
  errors: ['invalid-argument', 'permission-denied', 'not-found'],
});

export function reportsRoutes(ctx: DomainContext) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, report, async (c, read) => {
    const user = requireUser(c, MSG.loginToReport);
    const { report, created } = await createReport(ctx, user, await read.json());
    return c.json(report, created ? 201 : 200);
  });
  return app;
}
