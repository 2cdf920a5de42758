// /api/health, /api/ready and /api/openapi.json: whether the server is up, whether this process
// should be sent traffic, and this API's own description.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { healthSchema, readySchema } from '../../../shared/schemas/answers.js';
import type { AppEnv } from '../http/auth.js';
import { readyAnswer, type Readiness } from '../http/readiness.js';
import type { OpenApiDocument } from '../openapi/document.js';
import { apiRoute, serve } from '../openapi/route.js';

const health = apiRoute({
  method: 'get',
  path: '/health',
  tag: 'Service',
  summary: 'Whether the server is up',
  auth: 'none',
  answers: { 200: { description: 'Up.', schema: healthSchema } },
});

const ready = apiRoute({
  method: 'get',
  path: '/ready',
  tag: 'Service',
  summary: 'Whether this server process should be sent traffic',
  description:
    'A load balancer\'s or orchestrator\'s readiness probe: 200 while serving; 503 while the process starts, migrates its database or drains on SIGTERM (docs/OPERATIONS.md "Shutdown and readiness"). `/api/health` stays 200 throughout.',
  auth: 'none',
  answers: {
    200: { description: 'Serving.', schema: readySchema },
    503: { description: 'Starting, migrating or draining: send traffic elsewhere.', schema: readySchema },
  },
});

/** The OpenAPI document's own answer: checked loosely (its full shape is OpenAPI 3.1's). */
const openApiSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
    components: z.looseObject({}),
  })
  .meta({ id: 'OpenApiDocument' });

const description = apiRoute({
  method: 'get',
  path: '/openapi.json',
  tag: 'Service',
  summary: 'This description of the API (OpenAPI 3.1)',
  description: 'The document docs/API.md is generated from. Public and cacheable.',
  auth: 'none',
  answers: { 200: { description: 'The OpenAPI 3.1 document.', schema: openApiSchema } },
});

/** `document` builds the description of the whole app, once it has all its routes. */
export function serviceRoutes(readiness: Readiness, document: () => OpenApiDocument) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, health, (c) => c.json({ ok: true }));
  serve(app, ready, (c) => {
    const { body, status } = readyAnswer(readiness.state());
    return c.json(body, status, { 'Cache-Control': 'no-store' });
  });
  // Public, the same for everyone until the next deploy.
  serve(app, description, (c) => c.json(document(), 200, { 'Cache-Control': 'public, max-age=3600' }));
  return app;
}
