// The process's metrics in the Prometheus text format (docs/OPERATIONS.md
// "Metrics"), with prom-client: one registry per process, filled as things happen (the request
// middleware, the sync routes, the rate limits, the SQLite group commit, the mail and push
// senders) or read when scraped (the PostgreSQL pool, the push queue). Requests are labelled by
// their route pattern (`/api/topics/:id`), never the raw URL, so the series stay few.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Seconds: from a cache hit (well under a millisecond) to a slow push or a big pull. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  requests: new Counter({
    name: 'crux_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  }),
  requestSeconds: new Histogram({
    name: 'crux_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to its first byte for a live stream), by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  }),
  syncDocuments: new Counter({
    name: 'crux_sync_documents_total',
    help: 'Documents returned by sync pulls and received by sync pushes, by direction and collection.',
    labelNames: ['direction', 'collection'] as const,
    registers: [registry],
  }),
  syncSeconds: new Histogram({
    name: 'crux_sync_duration_seconds',
    help: 'Time a sync pull or push took in the server, by direction and collection.',
    labelNames: ['direction', 'collection'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  }),
  streamsOpen: new Gauge({
    name: 'crux_live_streams_open',
    help: 'Live sync streams (GET /api/sync/stream) open now.',
    registers: [registry],
  }),
  rateLimited: new Counter({
    name: 'crux_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by the bucket that refused.',
    labelNames: ['bucket'] as const,
    registers: [registry],
  }),
  groupCommitSize: new Histogram({
    name: 'crux_sqlite_group_commit_size',
    help: 'Write transactions committed together by one SQLite COMMIT.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128],
    registers: [registry],
  }),
  busy: new Counter({
    name: 'crux_db_busy_total',
    help: 'Requests answered 503 because the database stayed locked or had no free connection past DB_BUSY_TIMEOUT_MS.',
    registers: [registry],
  }),
  mailSent: new Counter({
    name: 'crux_mail_sent_total',
    help: 'Weekly summary mails accepted by the mail server (or written to the outbox).',
    registers: [registry],
  }),
  mailFailures: new Counter({
    name: 'crux_mail_failures_total',
    help: 'Weekly summary mails that failed after their retries, or were refused before sending.',
    registers: [registry],
  }),
  mailPending: new Gauge({
    name: 'crux_mail_queue_depth',
    help: 'Mails of the weekly run under way not yet sent.',
    registers: [registry],
  }),
  pushSent: new Counter({
    name: 'crux_push_sent_total',
    help: 'Pushes accepted by a push service.',
    registers: [registry],
  }),
  pushFailures: new Counter({
    name: 'crux_push_failures_total',
    help: 'Push attempts that failed (to be retried, given up, or the subscription gone).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
};

/** The text of a scrape, and its content type. */
export async function scrape(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** A gauge read when scraped (the PostgreSQL pool, the push queue): `read` gives its value(s). */
export function gaugeOnScrape(
  name: string,
  help: string,
  read: () => number | Promise<number> | Record<string, number>,
  labelName?: string,
): void {
  // One process may open several stores (tests): the newest one is the one read.
  registry.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    labelNames: labelName ? [labelName] : [],
    registers: [registry],
    async collect() {
      try {
        const value = await read();
        if (typeof value === 'number') this.set(value);
        else for (const [label, n] of Object.entries(value)) this.set({ [labelName!]: label }, n);
      } catch {
        // The database is away: the gauge keeps its last value; the request metrics show the outage.
      }
    },
  });
}
