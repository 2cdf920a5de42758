// /api/sync: replication endpoints (pull, push per collection) and the live stream.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { ID_PATTERN } from '../../../shared/constants.js';
import { pushedDocumentSchema } from '../../../shared/schemas/answers.js';
import { wholeNumberParam } from '../../../shared/schemas/common.js';
import { MSG } from '../../../shared/messages.js';
import { CruxError } from '../../../shared/errors.js';
import {
  MAX_PULL_LIMIT,
  PULL_ANSWER_MAX,
  MAX_PUSH_ROWS,
  MAX_STREAM_TOPICS,
  MAX_TOPIC_IDS,
  PRIVATE_COLLECTIONS,
  STREAM_HEARTBEAT_MS,
  SYNC_COLLECTIONS,
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  type PushRow,
  type SyncCollection,
  type SyncDocs,
} from '../../../shared/sync-protocol.js';
import type { DomainContext } from '../domain/context.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { badRequest } from '../../../shared/errors.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { readJsonBody } from '../http/validate.js';
import { apiRoute, notFoundParam, serve } from '../openapi/route.js';
import { pullAnswerSchema, pushAnswerSchema, responsesPullAnswerSchema, topicsAnswerSchema } from '../openapi/sync-documents.js';
import { listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import { topicsByIds, topicsPage } from './kept-topics.js';
import { COLLECTIONS } from './collections/index.js';
import { pullResponsesOfTopicsText, pullText, type PullText } from './pull.js';
import { push } from './push.js';
import { openStream } from './stream.js';

// An installed app keeps running old code until it reloads. It sends the sync
// protocol it speaks as `x-crux-sync`; a different version than the server's is
// refused with 426 `sync-outdated` before anything is read or written, and the
// app asks the person to reload. No header (curl, a script) is accepted.
// app.ts puts it before authentication, so an outdated app hears 'reload', not 'log in'.
export const requireCurrentSyncProtocol: MiddlewareHandler = async (c, next) => {
  const version = c.req.header(SYNC_PROTOCOL_HEADER);
  if (version !== undefined && version !== String(SYNC_PROTOCOL_VERSION)) throw new CruxError('sync-outdated', MSG.syncOutdated);
  await next();
};
import { metrics } from '../observe/metrics.js';
import { fewLargePagesAtOnce } from '../domain/turns.js';
import { requestLog } from '../observe/request.js';

/** One log line and the metrics of a sync pull or push: its collection, its documents, its time. */
function observeSync(c: Context, direction: 'pull' | 'push', collection: string, documents: number, start: number) {
  const seconds = (performance.now() - start) / 1000;
  metrics.syncDocuments.inc({ direction, collection }, documents);
  metrics.syncSeconds.observe({ direction, collection }, seconds);
  requestLog(c).info({ collection, documents, ms: Math.round(seconds * 10_000) / 10 }, `sync ${direction}`);
}

/** A pull's answer, `{"documents":[…],"checkpoint":…}`, the bytes c.json would send. */
function pageJson(c: Context, page: PullText<unknown>): Response {
  const head = Buffer.from('{"documents":');
  const tail = Buffer.from(`,"checkpoint":${JSON.stringify(page.checkpoint)}}`);
  return c.body(Buffer.concat([head, page.documents, tail]), 200, { 'Content-Type': 'application/json' });
}

const topicId = z.string().regex(ID_PATTERN, 'topic_id is not a valid id.');
/** A checkpoint's seq, the same bound for GET pull's query and POST pull's body: a safe whole number. */
export const SEQ_MESSAGE = `seq must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`;
const seqNumber = z
  .number({ error: SEQ_MESSAGE })
  .int({ error: SEQ_MESSAGE })
  .min(0, SEQ_MESSAGE)
  .max(Number.MAX_SAFE_INTEGER, SEQ_MESSAGE);
const checkpointSchema = z.object({
  id: z.string().max(200),
  seq: seqNumber,
});
const limitParam = z
  .string()
  .regex(/^\d+$/, 'limit must be a whole number.')
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_PULL_LIMIT, `limit must be between 1 and ${MAX_PULL_LIMIT}.`)
  .meta(wholeNumberParam(1, MAX_PULL_LIMIT, 100));
export const pullQuery = z.object({
  id: z.string().max(200).default('').describe("The checkpoint's id (default: the start)."),
  seq: z
    .string()
    .regex(/^\d{1,16}$/, SEQ_MESSAGE)
    .transform(Number)
    .pipe(seqNumber)
    .meta({ ...wholeNumberParam(0, Number.MAX_SAFE_INTEGER, 0), description: "The checkpoint's seq (default 0)." })
    .default(0),
  limit: limitParam.default(100),
  topic_id: topicId.optional().describe('responses only: one topic.'),
});
export const responsesPullBody = z.strictObject({
  checkpoint: z.strictObject({
    topics: z.record(topicId, checkpointSchema).refine((t) => Object.keys(t).length <= MAX_STREAM_TOPICS, 'Too many topics.'),
  }),
  limit: z.number().int().min(1).max(MAX_PULL_LIMIT),
});
export const topicsByIdBody = z.strictObject({
  topics: z
    .record(topicId, seqNumber)
    .refine((t) => Object.keys(t).length <= MAX_TOPIC_IDS, `At most ${MAX_TOPIC_IDS} topics.`)
    .describe('Each topic the device keeps, with the seq of the state it holds (0: none).'),
});
export const streamQuery = z.object({
  topics: z
    .string()
    .max(MAX_STREAM_TOPICS * 65)
    .optional(),
});

const isCollection = (name: string): name is SyncCollection => (SYNC_COLLECTIONS as readonly string[]).includes(name);

/** An unknown collection is no address at all: `404`, as for any other. */
const collectionParams = z.object({
  collection: z
    .string()
    .refine(isCollection, notFoundParam(MSG.notFound))
    .meta({ enum: [...SYNC_COLLECTIONS], description: `One of: ${SYNC_COLLECTIONS.join(', ')} (unknown: 404).` }),
});

const stream = apiRoute({
  method: 'get',
  path: '/stream',
  tag: 'Sync',
  summary: 'The live stream of changes',
  description:
    "Server-sent events: each event's data is a `StreamEvent` as JSON; `: ping` comments are heartbeats. Anonymous callers get the " +
    'public collections only. `topics` is a comma-separated list of up to 200 topic ids whose responses to follow.',
  auth: 'optional',
  sync: true,
  query: streamQuery,
  answers: { 200: { description: 'The event stream.', contentType: 'text/event-stream', schema: z.string() } },
  errors: ['invalid-argument'],
  limited: true,
});

const responsesPull = apiRoute({
  method: 'post',
  path: '/responses/pull',
  tag: 'Sync',
  summary: 'Pull the responses of several topics at once',
  description: `Up to 200 topics in one call; \`limit\` at most ${MAX_PULL_LIMIT}, and an answer carries at most ${PULL_ANSWER_MAX} documents whatever it asks (one that long may have more after it: ask again from its checkpoint). Anonymous allowed.`,
  auth: 'optional',
  sync: true,
  body: { schema: responsesPullBody, required: true },
  answers: { 200: { description: 'The page of documents.', schema: responsesPullAnswerSchema } },
  errors: ['invalid-argument'],
  limited: true,
});

const topicsPull = apiRoute({
  method: 'post',
  path: '/topics/pull',
  tag: 'Sync',
  summary: 'Pull the topics a device keeps, by id',
  description: `Up to ${MAX_TOPIC_IDS} topics, each with the seq the device holds: answers those the server holds newer (a deleted one as its tombstone). Anonymous allowed.`,
  auth: 'optional',
  sync: true,
  body: { schema: topicsByIdBody, required: true },
  answers: { 200: { description: 'The newer topics.', schema: topicsAnswerSchema } },
  errors: ['invalid-argument'],
  limited: true,
});

const topicsPageRoute = apiRoute({
  method: 'get',
  path: '/topics/page',
  tag: 'Sync',
  summary: 'A page of a topic list as synced documents',
  description:
    'The page `GET /api/topics` answers for the same query (sort, category, search, limit, offset), as `topics` documents in its order: what a device shows and keeps.',
  auth: 'optional',
  sync: true,
  query: listTopicsQuerySchema,
  answers: { 200: { description: 'The page.', schema: topicsAnswerSchema } },
  errors: ['invalid-argument'],
  limited: true,
});

const collectionPull = apiRoute({
  method: 'get',
  path: '/{collection}/pull',
  tag: 'Sync',
  summary: "Pull a collection's documents after a checkpoint",
  description: `The private collections (${PRIVATE_COLLECTIONS.join(', ')}) are the caller's own and need a token; \`limit\` at most ${MAX_PULL_LIMIT}, and an answer carries at most ${PULL_ANSWER_MAX} documents whatever it asks (one that long may have more after it: ask again from its checkpoint; a shorter one is the end).`,
  auth: 'optional',
  sync: true,
  params: collectionParams,
  query: pullQuery,
  answers: { 200: { description: 'The page of documents.', schema: pullAnswerSchema } },
  errors: ['invalid-argument', 'not-found'],
  limited: true,
});

/** What the document says of a push's body; each collection's own schema checks its rows (readRows). */
const pushBodySchema = z
  .array(z.object({ assumedMasterState: pushedDocumentSchema.nullish(), newDocumentState: pushedDocumentSchema }))
  .max(MAX_PUSH_ROWS)
  .describe("Rows to apply: each the client's new state of a document and the state it assumed the server had.");

const collectionPush = apiRoute({
  method: 'post',
  path: '/{collection}/push',
  tag: 'Sync',
  summary: "Push the caller's changes to a collection",
  description: 'At most 200 rows, taken whole or refused whole by the write limit (each row counts as one write).',
  auth: 'required',
  sync: true,
  params: collectionParams,
  body: { schema: pushBodySchema, required: true },
  answers: { 200: { description: 'What the server did not take as sent.', schema: pushAnswerSchema } },
  errors: ['invalid-argument', 'not-found'],
});

export interface SyncRoutesOptions {
  heartbeatMs?: number;
  /** Rows pushed count against the caller's write limits, documents pulled against their pull limits; live streams against their open-stream limits. */
  limits?: RateLimits;
  /** Aborted on shutdown: every live stream ends, and its client reconnects (to another process). */
  shutdown?: AbortSignal;
}

export function syncRoutes(
  ctx: DomainContext,
  { heartbeatMs = STREAM_HEARTBEAT_MS, limits = NO_RATE_LIMITS, shutdown }: SyncRoutesOptions = {},
) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, stream, async (c, read) => {
    const { topics } = read.query();
    const ids = (topics ?? '').split(',').filter((id) => id !== '');
    if (ids.length > MAX_STREAM_TOPICS || ids.some((id) => !ID_PATTERN.test(id))) {
      throw badRequest('topics is a comma-separated list of topic ids.');
    }
    // Anonymous is allowed: public collections only.
    const user = c.get('user');
    const release = await limits.stream(c, user);
    return openStream(c, ctx, user, new Set(ids), { heartbeatMs, onClose: release, ...(shutdown ? { shutdown } : {}) });
  });
  serve(app, responsesPull, async (c, read) => {
    const body = await read.json();
    // Up to 200 topics and 1,000 documents in one call, anonymous allowed: paid in documents.
    const start = performance.now();
    const charge = await limits.pull(c, c.get('user'));
    return fewLargePagesAtOnce(async () => {
      const page = await pullResponsesOfTopicsText(ctx, body.checkpoint, body.limit);
      await charge(page.count);
      observeSync(c, 'pull', 'responses', page.count, start);
      return pageJson(c, page);
    });
  });
  serve(app, topicsPull, async (c, read) => {
    const body = await read.json();
    const start = performance.now();
    const charge = await limits.pull(c, c.get('user'));
    const documents = await topicsByIds(ctx, body.topics);
    await charge(documents.length);
    observeSync(c, 'pull', 'topics', documents.length, start);
    return c.json({ documents });
  });
  serve(app, topicsPageRoute, async (c, read) => {
    const query = read.query();
    // As GET /api/topics: a search, and a page past the first, are expensive reads.
    if (query.search !== undefined) await limits.read(c, c.get('user'));
    else if (query.offset > 0) await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
    const start = performance.now();
    const documents = await topicsPage(ctx, query);
    observeSync(c, 'pull', 'topics', documents.length, start);
    return c.json({ documents });
  });
  serve(app, collectionPull, async (c, read) => {
    const collection = read.params().collection;
    const query = read.query();
    const user = COLLECTIONS[collection].privacy === 'private' ? requireUser(c, MSG.invalidToken) : c.get('user');
    const scope = { user, ...(query.topic_id ? { topicId: query.topic_id } : {}) };
    const start = performance.now();
    const charge = await limits.pull(c, user);
    return fewLargePagesAtOnce(async () => {
      const page = await pullText(ctx, collection, scope, { id: query.id, seq: query.seq }, query.limit);
      await charge(page.count);
      observeSync(c, 'pull', collection, page.count, start);
      return pageJson(c, page);
    });
  });
  serve(app, collectionPush, async (c, read) => {
    const collection = read.params().collection;
    const user = requireUser(c, MSG.invalidToken);
    const rows = await readRows(c, collection);
    // Rows, not requests: a push of 50 documents is 50 writes. Refused whole (429) before any is applied.
    const start = performance.now();
    await limits.writes(c, user, rows.length);
    const conflicts = await push(ctx, user, collection, rows);
    observeSync(c, 'push', collection, rows.length, start);
    return c.json(conflicts);
  });
  return app;
}

async function readRows<C extends SyncCollection>(c: Context<AppEnv>, collection: C): Promise<PushRow<SyncDocs[C]>[]> {
  const body = await readJsonBody(c);
  const doc = COLLECTIONS[collection].pushSchema;
  const schema = z
    .array(z.object({ assumedMasterState: doc.nullish(), newDocumentState: doc }), { error: 'The push body is a list of rows.' })
    .max(MAX_PUSH_ROWS, `At most ${MAX_PUSH_ROWS} rows per push.`);
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(`${issue?.path.join('.') ?? 'row'}: ${issue?.message ?? 'invalid'}`);
  }
  // The schema checked every field a push may use; the rest of a document is never read from a push.
  return result.data as PushRow<SyncDocs[C]>[];
}
