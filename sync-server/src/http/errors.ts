// The HTTP edge of the error vocabulary (shared/errors.ts): the domain throws
// CruxError, app.ts's onError turns every throw into DESIGN.md §3's body
// `{"error": "<message for a person>", "code": "<kebab-case>"}`. Nothing else in
// the server knows about statuses.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { CruxError, type ErrorBody } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';

export function errorResponse(c: Context, error: unknown, log: (message: string, error?: unknown) => void): Response {
  if (error instanceof CruxError) return c.json<ErrorBody>({ error: error.message, code: error.code }, error.status);
  if (error instanceof HTTPException) return c.json<ErrorBody>({ error: error.message || MSG.notFound }, error.status);
  if (error instanceof URIError) return c.json<ErrorBody>({ error: 'The address is not valid.', code: 'invalid-argument' }, 400);
  log(`Unexpected error on ${c.req.method} ${c.req.path}`, error);
  return c.json<ErrorBody>({ error: MSG.internal, code: 'internal' }, 500);
}
