// Where GET /metrics is served (docs/OPERATIONS.md "Metrics"): never to the public
// by default. METRICS_PORT opens a listener of its own, on loopback unless METRICS_HOST says
// otherwise (Prometheus on the same host, or a sidecar); METRICS_TOKEN serves it on the main port
// to a bearer of that token. Neither set: the metrics are kept but not served.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Env, Hono } from 'hono';
import { MSG } from '../../../shared/messages.js';
import { scrape } from './metrics.js';

export interface MetricsConfig {
  /** METRICS_PORT: a listener for GET /metrics only (0: any free port); unset: none. */
  port: number | undefined;
  /** METRICS_HOST: the address it listens on (default 127.0.0.1: not reachable from other machines). */
  host: string;
  /** METRICS_TOKEN: GET /metrics on the main port with `Authorization: Bearer <token>`; unset: not on the main port. */
  token: string | undefined;
}

export function readMetricsConfig(env: NodeJS.ProcessEnv = process.env): MetricsConfig {
  const rawPort = env.METRICS_PORT?.trim();
  let port: number | undefined;
  if (rawPort) {
    port = Number(rawPort);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`METRICS_PORT must be a port number (got "${rawPort}").`);
  }
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < 16)
    throw new Error('METRICS_TOKEN must be at least 16 characters (it guards the metrics on the public port).');
  return { port, host: env.METRICS_HOST?.trim() || '127.0.0.1', token };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** GET /metrics on the app (the main port): 404 without METRICS_TOKEN, 401 without the right bearer. */
export function mountMetrics<E extends Env>(app: Hono<E>, token: string | undefined): void {
  app.get('/metrics', async (c) => {
    if (!token) return c.json({ error: MSG.notFound, code: 'not-found' }, 404);
    if (!bearerMatches(c.req.header('authorization'), token))
      return c.json({ error: 'The metrics need the bearer token.', code: 'unauthenticated' }, 401, { 'WWW-Authenticate': 'Bearer' });
    const { body, contentType } = await scrape();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
}

/** The listener of METRICS_PORT: GET /metrics (this process's, or what `read` answers: cluster/primary.ts sums its processes'), and 404 for anything else. */
export async function startMetricsServer(
  port: number,
  host: string,
  read: () => Promise<{ body: string; contentType: string }> = scrape,
): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    read().then(
      ({ body, contentType }) => response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
      () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end('The metrics could not be read.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
