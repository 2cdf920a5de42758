// Every route the API serves, described once: method, path, who may call it, the zod schemas of its
// query and body (the same ones the handlers read with) and of its answers. document.ts turns this
// list into the OpenAPI 3.1 document served at /api/openapi.json, and scripts/api-docs.ts into
// docs/API.md. A route added to app.ts and not here fails tests/shared/openapi-document.test.ts.
import { z } from 'zod';
import { PUSH_LIMITS } from '../../../shared/constants.js';
import { subscriptionSchema } from '../push/endpoint.js';
import { unsubscribeDeviceSchema } from '../routes/push.js';
import type { ErrorCode } from '../../../shared/errors.js';
import {
  blockedUserSchema,
  followedTopicSchema,
  pushConfigSchema,
  pushSubscriptionSavedSchema,
  categoriesSchema,
  clientConfigSchema,
  commonGroundEntrySchema,
  healthSchema,
  readySchema,
  leaderboardEntrySchema,
  myStanceSchema,
  notificationSchema,
  preferencesAnswerSchema,
  responseMappingSchema,
  responseSchema,
  sourceCitationSchema,
  sourceListingSchema,
  sourceSchema,
  pushedDocumentSchema,
  topicSchema,
  topicStancesSchema,
  unsubscribedSchema,
  upvoteResultSchema,
  userProfileSchema,
  userScoreSchema,
} from '../../../shared/schemas/answers.js';
import {
  moderatedOriginalSchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  moderationQueuePageSchema,
  reportSchema,
  roleChangeSchema,
} from '../../../shared/schemas/moderation-answers.js';
import {
  createReportSchema,
  moderationActionSchema,
  moderationLogQuerySchema,
  moderationQueueQuerySchema,
  setRoleSchema,
} from '../../../shared/schemas/moderation.js';
import { createResponseSchema, updateResponseSchema } from '../../../shared/schemas/responses.js';
import { pullAnswerSchema, pushAnswerSchema, responsesPullAnswerSchema } from './sync-documents.js';
import { stanceSchema } from '../../../shared/schemas/stances.js';
import { createTopicSchema, listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import { upvoteSchema } from '../../../shared/schemas/upvotes.js';
import { preferencesSchema } from '../../../shared/schemas/users.js';
import { PRIVATE_COLLECTIONS, SYNC_COLLECTIONS } from '../../../shared/sync-protocol.js';
import { notificationsPageQuery } from '../routes/notifications.js';
import { mappingsQuery, responsesListQuery, responsesSearchQuery } from '../routes/responses.js';
import { sourceCitationsQuery, sourcesListQuery } from '../routes/sources.js';
import { commonGroundQuery } from '../routes/stances.js';
import { includeQuery, profileQuery } from '../routes/users.js';
import { pullQuery, responsesPullBody, streamQuery } from '../sync/routes.js';

/** none: no token is read; optional: a token that is sent must be valid (else 401); required: 401 without one. */
export type Auth = 'none' | 'optional' | 'required';

export interface AnswerDoc {
  description: string;
  /** The JSON body; absent for an answer without one (204, 303). */
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  /** Headers the answer may carry: name → what it says. */
  headers?: Record<string, string>;
}

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI's form: `/api/topics/{id}` (Hono's `/api/topics/:id`). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  /** Path parameters: name → description (each is a string). */
  params?: Record<string, string>;
  query?: z.ZodType;
  /** What a query parameter's schema cannot say (ranges, defaults): name → note. */
  queryNotes?: Record<string, string>;
  /** A query string as a caller would send it (`?sort=hot&limit=20`). */
  queryExample?: string;
  body?: { schema: z.ZodType; required: boolean; description?: string; formToo?: boolean; example?: unknown };
  answers: Record<number, AnswerDoc>;
  /** Refusals this route gives besides those every route of its kind may give (document.ts, commonErrors). */
  errors?: ErrorCode[];
  /** Counted against a rate limit beyond the writes' (docs/SECURITY.md "Rate limits"): 429 possible on a read. */
  limited?: boolean;
}

const PAGE_HEADERS_CURSOR = {
  'X-Next-Cursor': 'Present when more follow: the cursor of the next page.',
  Link: 'Present when more follow: `<address of the next page>; rel="next"`.',
};
const PAGE_HEADERS_OFFSET = {
  'X-Total-Count': 'How many items the whole list has.',
  'X-Next-Offset': 'Present when more follow: the offset of the next page.',
  Link: 'Present when more follow: `<address of the next page>; rel="next"`.',
};

const id = { id: 'The id.' };
const topicId = { id: "The topic's id." };

/** The OpenAPI document's own answer: checked loosely (its full shape is OpenAPI 3.1's). */
const openApiSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
    components: z.looseObject({}),
  })
  .meta({ id: 'OpenApiDocument' });

const collectionParam = { collection: `One of: ${SYNC_COLLECTIONS.join(', ')} (unknown: 404).` };

const pushBodySchema = z
  .array(z.object({ assumedMasterState: pushedDocumentSchema.nullish(), newDocumentState: pushedDocumentSchema }))
  .max(200)
  .describe("Rows to apply: each the client's new state of a document and the state it assumed the server had.");

const unsubscribeBody = z.object({ token: z.string().describe("The mail's signed token.") });

export const ROUTES: readonly RouteDoc[] = [
  // ---- the service ----
  {
    method: 'get',
    path: '/api/health',
    tag: 'Service',
    summary: 'Whether the server is up',
    auth: 'none',
    answers: { 200: { description: 'Up.', schema: healthSchema } },
  },
  {
    method: 'get',
    path: '/api/ready',
    tag: 'Service',
    summary: 'Whether this server process should be sent traffic',
    description:
      'A load balancer\'s or orchestrator\'s readiness probe: 200 while serving; 503 while the process starts, migrates its database or drains on SIGTERM (docs/OPERATIONS.md "Shutdown and readiness"). `/api/health` stays 200 throughout.',
    auth: 'none',
    answers: {
      200: { description: 'Serving.', schema: readySchema },
      503: { description: 'Starting, migrating or draining: send traffic elsewhere.', schema: readySchema },
    },
  },
  {
    method: 'get',
    path: '/api/config',
    tag: 'Service',
    summary: "The web app's Firebase settings",
    description: 'Read by the app at start-up, so one build runs against the local emulator or a real project.',
    auth: 'none',
    answers: { 200: { description: 'The settings.', schema: clientConfigSchema } },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Service',
    summary: 'This description of the API (OpenAPI 3.1)',
    description: 'The document docs/API.md is generated from. Public and cacheable.',
    auth: 'none',
    answers: { 200: { description: 'The OpenAPI 3.1 document.', schema: openApiSchema } },
  },
  // ---- topics ----
  {
    method: 'get',
    path: '/api/topics',
    tag: 'Topics',
    summary: 'A page of topics, or a search',
    description:
      '`sort` hot (default), new or top; `limit` 1–100 (default 20), `offset` at most 10,000; `category` one of the fixed list. ' +
      'With `search`, the topics whose title matches (FTS5, prefix per word), in the same `sort`. ' +
      'A search and a page past the first are expensive reads.',
    auth: 'optional',
    query: listTopicsQuerySchema,
    queryNotes: {
      limit: '1–100, default 20.',
      offset: 'At most 10,000, default 0.',
      search: 'Words of the title (prefix per word).',
    },
    queryExample: '?sort=hot&limit=20&offset=0&category=Science',
    answers: { 200: { description: 'The topics (`[]` if none).', schema: z.array(topicSchema) } },
    errors: ['invalid-argument'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/topics/categories',
    tag: 'Topics',
    summary: 'The fixed category list',
    auth: 'optional',
    answers: { 200: { description: 'The categories.', schema: categoriesSchema } },
  },
  {
    method: 'get',
    path: '/api/topics/{id}',
    tag: 'Topics',
    summary: 'One topic',
    auth: 'optional',
    params: topicId,
    answers: { 200: { description: 'The topic.', schema: topicSchema } },
    errors: ['not-found'],
  },
  {
    method: 'post',
    path: '/api/topics',
    tag: 'Topics',
    summary: 'Create a topic',
    description:
      'A client may send its own `id`; a retried create by the same user answers `201` with the topic that landed the first time. ' +
      'Fields the server computes may be sent back (they are ignored); any other unknown field is refused. ' +
      'A new account (docs/MODERATION.md) past NEW_USER_TOPICS_PER_DAY topics in 24 h is `403`; the same title posted more than SPAM_REPEATS times in SPAM_WINDOW_MINUTES is `400`.',
    auth: 'required',
    body: { schema: createTopicSchema, required: true, example: { title: 'Is tea better?', categories: ['Culture'] } },
    answers: { 201: { description: 'The new topic.', schema: topicSchema } },
    errors: ['invalid-argument', 'permission-denied', 'already-exists'],
  },
  {
    method: 'delete',
    path: '/api/topics/{id}',
    tag: 'Topics',
    summary: 'Delete a topic (creator only)',
    description: 'Removes its responses, votes and notifications.',
    auth: 'required',
    params: topicId,
    answers: { 204: { description: 'Deleted.' } },
    errors: ['permission-denied', 'not-found'],
  },
  // ---- stances (issue 13) ----
  {
    method: 'get',
    path: '/api/topics/{id}/stance',
    tag: 'Stances',
    summary: "The caller's own stance on a topic",
    description: "There is no call that reads another user's stance.",
    auth: 'required',
    params: topicId,
    answers: { 200: { description: "The caller's stance.", schema: myStanceSchema } },
    errors: ['not-found'],
  },
  {
    method: 'put',
    path: '/api/topics/{id}/stance',
    tag: 'Stances',
    summary: "Record the caller's stance",
    description:
      'A stance other than the current one is a change (kept in `history`, starts a new list of credits); `credits` (Δ) replaces the ' +
      "latest change's list: at most 3, responses of this topic written before that change, not your own, only after a change. " +
      'A Δ earns its author persuasion points only from a creditor with standing, once per creditor and topic (docs/COMMON-GROUND.md).',
    auth: 'required',
    params: topicId,
    body: { schema: stanceSchema, required: true, example: { stance: 'agree', credits: ['R1'] } },
    answers: { 200: { description: "The caller's stance.", schema: myStanceSchema } },
    errors: ['invalid-argument', 'permission-denied', 'not-found'],
  },
  {
    method: 'get',
    path: '/api/topics/{id}/stances',
    tag: 'Stances',
    summary: "A topic's public stance totals",
    description: 'No individual stance is ever served to anyone but its owner. An expensive read.',
    auth: 'optional',
    params: topicId,
    answers: { 200: { description: 'The totals.', schema: topicStancesSchema } },
    errors: ['not-found'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/topics/{id}/common-ground',
    tag: 'Stances',
    summary: "A topic's responses ranked by common ground",
    description: 'Best common-ground score first ([formula](COMMON-GROUND.md)). An expensive read.',
    auth: 'optional',
    params: topicId,
    query: commonGroundQuery,
    queryNotes: { limit: '1–100, default 20.' },
    queryExample: '?limit=20',
    answers: { 200: { description: 'The ranking.', schema: z.array(commonGroundEntrySchema) } },
    errors: ['invalid-argument', 'not-found'],
    limited: true,
  },
  // ---- responses ----
  {
    method: 'get',
    path: '/api/responses',
    tag: 'Responses',
    summary: "A topic's root responses, or a response's direct replies",
    description:
      'Give `topic_id` (the roots) or `parent_id` (the direct replies), oldest first, [paged](#paging) by cursor: `limit` 1–1000 ' +
      '(default 1000). An expensive read.',
    auth: 'optional',
    query: responsesListQuery,
    queryNotes: {
      topic_id: 'The topic whose roots to list (`404` if there is no such topic).',
      parent_id: 'The response whose direct replies to list (`404` if there is no such response).',
      limit: '1–1000, default 1000.',
      cursor: "An earlier answer's `X-Next-Cursor` (one the server did not make is `400`).",
    },
    queryExample: '?topic_id=T&limit=1000&cursor=…',
    answers: {
      200: { description: 'The responses (`[]` if none).', schema: z.array(responseSchema), headers: PAGE_HEADERS_CURSOR },
    },
    errors: ['invalid-argument', 'not-found'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/responses/mappings',
    tag: 'Responses',
    summary: "Every `{id, parent_response_id}` of a topic's responses",
    description: '[Paged](#paging) by cursor: `limit` 1–5000 (default 5000). An expensive read.',
    auth: 'optional',
    query: mappingsQuery,
    queryNotes: { limit: '1–5000, default 5000.', cursor: "An earlier answer's `X-Next-Cursor`." },
    answers: { 200: { description: 'The pairs.', schema: z.array(responseMappingSchema), headers: PAGE_HEADERS_CURSOR } },
    errors: ['invalid-argument', 'not-found'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/responses/search',
    tag: 'Responses',
    summary: "A topic's responses whose content matches",
    description: 'The 20 best. An expensive read.',
    auth: 'optional',
    query: responsesSearchQuery,
    queryExample: '?topic_id=T&q=budget',
    answers: { 200: { description: 'The matches.', schema: z.array(responseSchema) } },
    errors: ['invalid-argument', 'not-found'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/responses/{id}',
    tag: 'Responses',
    summary: 'One response',
    auth: 'optional',
    params: id,
    answers: { 200: { description: 'The response.', schema: responseSchema } },
    errors: ['not-found'],
  },
  {
    method: 'post',
    path: '/api/responses',
    tag: 'Responses',
    summary: 'Post a response or a reply',
    description:
      'A `topic_id` makes a root response, a `parent_response_id` alone is enough for a reply. A quote must be in the same topic. ' +
      'A client may send its own `id` (a retried create answers `201` with what landed the first time). ' +
      'A new account (docs/MODERATION.md) citing more than NEW_USER_LINKS sources, or the same content posted more than SPAM_REPEATS times in SPAM_WINDOW_MINUTES, is `400`.',
    auth: 'required',
    body: {
      schema: createResponseSchema,
      required: true,
      example: {
        content: '…',
        type: 'for',
        topic_id: 'T',
        parent_response_id: null,
        quoted_response_id: null,
        sources: [{ url: 'https://example.org/report', name: 'A report', description: 'Where the figure comes from' }],
      },
    },
    answers: { 201: { description: 'The new response.', schema: responseSchema } },
    errors: ['invalid-argument', 'not-found', 'already-exists'],
  },
  {
    method: 'put',
    path: '/api/responses/{id}',
    tag: 'Responses',
    summary: 'Edit a response (creator only)',
    description:
      'Content, quote and sources only; a field left out stays as it was, `null`/`[]` clear. A new account citing more than NEW_USER_LINKS sources is `400`.',
    auth: 'required',
    params: id,
    body: { schema: updateResponseSchema, required: true, example: { content: '…', quoted_response_id: null, sources: [] } },
    answers: { 200: { description: 'The response as edited.', schema: responseSchema } },
    errors: ['invalid-argument', 'permission-denied', 'not-found'],
  },
  {
    method: 'delete',
    path: '/api/responses/{id}',
    tag: 'Responses',
    summary: 'Delete a response and its whole subtree (creator only)',
    auth: 'required',
    params: id,
    answers: { 204: { description: 'Deleted.' } },
    errors: ['permission-denied', 'not-found'],
  },
  // ---- sources ----
  {
    method: 'get',
    path: '/api/sources',
    tag: 'Sources',
    summary: 'The sources catalogue by page, or a search',
    description:
      'Without `q`: sources by page (`limit` 1–500, default 100, `offset`), optionally narrowed by `filter`; `include=citations` adds ' +
      '`cited_by` (5 newest) and `cited_count`. With `q`: the sources matching name, URL or description, the 20 best (the ' +
      "composer's suggestions), unpaged. An expensive read.",
    auth: 'optional',
    query: sourcesListQuery,
    queryNotes: {
      q: 'A search (name, URL, description): the 20 best, unpaged.',
      filter: 'Narrows the pages to sources whose name, URL or description contains it.',
      limit: '1–500, default 100.',
      offset: 'Default 0.',
    },
    queryExample: '?limit=100&offset=0&filter=who&include=citations',
    answers: {
      200: {
        description: 'The sources (`SourceListing` with `include=citations`).',
        schema: z.union([z.array(sourceSchema), z.array(sourceListingSchema)]),
        headers: PAGE_HEADERS_OFFSET,
      },
    },
    errors: ['invalid-argument'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/sources/{id}/responses',
    tag: 'Sources',
    summary: 'The live responses citing a source',
    description: '[Paged](#paging) by `limit` (1–500, default 100) and `offset`. An expensive read.',
    auth: 'optional',
    params: { id: "The source's id." },
    query: sourceCitationsQuery,
    queryNotes: { limit: '1–500, default 100.', offset: 'Default 0.' },
    answers: { 200: { description: 'The citing responses.', schema: z.array(sourceCitationSchema), headers: PAGE_HEADERS_OFFSET } },
    errors: ['invalid-argument', 'not-found'],
    limited: true,
  },
  // ---- votes ----
  {
    method: 'post',
    path: '/api/upvotes',
    tag: 'Votes',
    summary: "Add the caller's upvote",
    description: '`201` when added, `200` when it already was. `target_creator_uid` is accepted and ignored (the real creator is used).',
    auth: 'required',
    body: { schema: upvoteSchema, required: true, example: { target_type: 'topic', target_id: 'T', target_creator_uid: 'U' } },
    answers: {
      201: { description: 'Added.', schema: upvoteResultSchema },
      200: { description: 'It already was.', schema: upvoteResultSchema },
    },
    errors: ['invalid-argument', 'not-found'],
  },
  {
    method: 'delete',
    path: '/api/upvotes',
    tag: 'Votes',
    summary: "Remove the caller's upvote",
    description: 'The target travels in the JSON body.',
    auth: 'required',
    body: { schema: upvoteSchema, required: true, example: { target_type: 'response', target_id: 'R' } },
    answers: { 204: { description: 'Removed (or there was none).' } },
    errors: ['invalid-argument', 'not-found'],
  },
  // ---- users ----
  {
    method: 'get',
    path: '/api/users/leaderboard',
    tag: 'Users',
    summary: 'The leaderboard',
    description:
      "Users with points > 0, best first, 100 at most; `include=persuasion` adds each one's `persuasion_points` (the part of `points` earned by Δ).",
    auth: 'optional',
    query: includeQuery,
    queryExample: '?include=persuasion',
    answers: { 200: { description: 'The entries.', schema: z.array(leaderboardEntrySchema) } },
    errors: ['invalid-argument'],
  },
  {
    method: 'get',
    path: '/api/users/preferences',
    tag: 'Users',
    summary: "The caller's mail preferences",
    auth: 'required',
    answers: { 200: { description: 'The preferences.', schema: preferencesAnswerSchema } },
  },
  {
    method: 'post',
    path: '/api/users/preferences',
    tag: 'Users',
    summary: "Change the caller's mail preferences",
    auth: 'required',
    body: { schema: preferencesSchema, required: true, example: { receive_weekly_summary: false } },
    answers: { 200: { description: 'The new preferences.', schema: preferencesAnswerSchema } },
    errors: ['invalid-argument'],
  },
  {
    method: 'get',
    path: '/api/users/{uid}/score',
    tag: 'Users',
    summary: "A user's points and rank",
    description: "`include=persuasion` adds `persuasion_points` (the leaderboard's own row outside the top 100).",
    auth: 'required',
    params: { uid: "The user's uid." },
    query: includeQuery,
    answers: { 200: { description: 'The score.', schema: userScoreSchema } },
    errors: ['invalid-argument', 'not-found'],
  },
  {
    method: 'get',
    path: '/api/users/{uid}',
    tag: 'Users',
    summary: "A user's public page",
    description:
      'Points, rank and the latest 50 topics and responses (beyond DESIGN.md, for user pages). An expensive read. `missing=null` answers an unknown user with `200` and `null` instead of `404` (the web app asks this way: browsers log every 404 as an error).',
    auth: 'optional',
    params: { uid: "The user's uid." },
    query: profileQuery,
    queryExample: '?missing=null',
    answers: {
      200: { description: 'The page (or null: an unknown user asked with `missing=null`).', schema: userProfileSchema.nullable() },
    },
    errors: ['not-found'],
    limited: true,
  },
  {
    method: 'put',
    path: '/api/users/{uid}/role',
    tag: 'Moderation',
    summary: "Grant or revoke a user's moderator role (admins)",
    description:
      "Sets the `crux_role` custom claim (firebase-admin) and the user's stored role; logged as `role`. `403` for anyone but an admin, and for a user who is an admin (admins are made with `npm run users:role`).",
    auth: 'required',
    params: { uid: "The user's uid." },
    body: { schema: setRoleSchema, required: true, example: { role: 'moderator' } },
    answers: { 200: { description: 'The role now.', schema: roleChangeSchema } },
    errors: ['invalid-argument', 'permission-denied', 'not-found'],
  },
  // ---- moderation (issue 23) ----
  {
    method: 'post',
    path: '/api/reports',
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
  },
  {
    method: 'get',
    path: '/api/moderation/reports',
    tag: 'Moderation',
    summary: "The moderators' queue: reported targets, grouped",
    description:
      "Targets with open reports (`status=open`, the default) or whose reports are all handled (`status=handled`): hidden ones first, then most distinct reporters, then the oldest first report. Each carries the author's own text (even when removed), every report with its reporter, and `total`. Moderators and admins only (`403`). An expensive read.",
    auth: 'required',
    query: moderationQueueQuerySchema,
    queryNotes: { limit: '0–100, default 20.', offset: 'Default 0.' },
    queryExample: '?status=open&limit=20&offset=0',
    answers: { 200: { description: 'A page of the queue.', schema: moderationQueuePageSchema } },
    errors: ['invalid-argument', 'permission-denied'],
    limited: true,
  },
  {
    method: 'post',
    path: '/api/moderation/actions',
    tag: 'Moderation',
    summary: 'Act on a reported target',
    description:
      "`remove` / `restore` (topics, responses), `dismiss` (the reports; un-hides a hidden item), `lock` / `unlock` (topics), `suspend` (users: `days`, or for good without) / `unsuspend`. One transaction, logged; remove, restore, dismiss, lock and suspend mark the target's open reports handled. `400` for an action that does not fit the target, `403` for members and for a moderator acting on an admin's item, `404` for a missing target.",
    auth: 'required',
    body: {
      schema: moderationActionSchema,
      required: true,
      example: { action: 'remove', target_type: 'response', target_id: 'R', reason: 'Personal attack' },
    },
    answers: { 200: { description: 'The log entry of the action.', schema: moderationLogEntrySchema } },
    errors: ['invalid-argument', 'permission-denied', 'not-found'],
  },
  {
    method: 'get',
    path: '/api/moderation/log',
    tag: 'Moderation',
    summary: 'The moderation log, newest first',
    description:
      'Every action (who, what, target, reason, days, when); `moderator_uid` null is the automatic hide. Moderators and admins only.',
    auth: 'required',
    query: moderationLogQuerySchema,
    queryNotes: { limit: '1–100, default 50.', offset: 'Default 0.' },
    answers: { 200: { description: 'A page of the log.', schema: moderationLogPageSchema } },
    errors: ['invalid-argument', 'permission-denied'],
  },
  {
    method: 'get',
    path: '/api/moderation/original/{target_type}/{id}',
    tag: 'Moderation',
    summary: "A removed or hidden item's own text, for its author and moderators",
    description:
      "The author's text, sources and quote as they were before the removal; for an item not moderated, its current text with `moderation` null. `403` for anyone but the author and moderators.",
    auth: 'required',
    params: { target_type: '`topic` or `response`.', id: "The item's id." },
    answers: { 200: { description: 'The original.', schema: moderatedOriginalSchema } },
    errors: ['invalid-argument', 'permission-denied', 'not-found'],
  },
  // ---- notifications ----
  {
    method: 'get',
    path: '/api/notifications/user/{uid}',
    tag: 'Notifications',
    summary: "The caller's notifications, newest first",
    description: "`limit` ≤ 500 (default 100) and `offset`. Only the caller's own uid (`403` for another).",
    auth: 'required',
    params: { uid: "The caller's uid." },
    query: notificationsPageQuery,
    queryNotes: { limit: '1–500, default 100.', offset: 'Default 0.' },
    queryExample: '?limit=100&offset=0',
    answers: { 200: { description: 'The notifications.', schema: z.array(notificationSchema) } },
    errors: ['invalid-argument', 'permission-denied'],
  },
  {
    method: 'put',
    path: '/api/notifications/{id}/read',
    tag: 'Notifications',
    summary: 'Mark a notification read',
    description: 'The body is empty or any JSON: nothing in it is used.',
    auth: 'required',
    params: { id: "The notification's id." },
    answers: { 200: { description: 'The notification, now read.', schema: notificationSchema } },
    errors: ['permission-denied', 'not-found'],
  },
  // ---- blocks (issue 23) ----
  {
    method: 'get',
    path: '/api/blocks',
    tag: 'Blocks',
    summary: 'The users the caller blocked',
    description:
      "Most recently blocked first. Private: nobody else ever reads a user's blocks, and nothing tells the blocked user. Their replies " +
      'no longer notify the caller; the app collapses their topics and responses. Also replicated as the `blocks` collection.',
    auth: 'required',
    answers: { 200: { description: 'The blocked users.', schema: z.array(blockedUserSchema) } },
  },
  {
    method: 'put',
    path: '/api/blocks/{uid}',
    tag: 'Blocks',
    summary: 'Block a user',
    description: 'No body. Blocking again changes nothing. Yourself: `400`; a user the server does not know: `404`.',
    auth: 'required',
    params: { uid: "The user's uid." },
    answers: { 200: { description: 'Blocked.', schema: blockedUserSchema } },
    errors: ['invalid-argument', 'not-found'],
  },
  {
    method: 'delete',
    path: '/api/blocks/{uid}',
    tag: 'Blocks',
    summary: 'Unblock a user',
    description: 'No body. `204` also when the user was not blocked.',
    auth: 'required',
    params: { uid: "The user's uid." },
    answers: { 204: { description: 'Unblocked (or was not blocked).' } },
    errors: ['invalid-argument', 'not-found'],
  },
  // ---- follows (issue 26 #3) ----
  {
    method: 'get',
    path: '/api/follows',
    tag: 'Follows',
    summary: 'The topics the caller follows',
    description:
      'Live topics only, most recently followed first. Private: nobody else ever reads them. A follower is notified ' +
      '(`reply_in_followed_topic`) of new root responses, at most 3 per topic and hour. Also replicated as the `follows` collection.',
    auth: 'required',
    answers: { 200: { description: 'The followed topics.', schema: z.array(followedTopicSchema) } },
  },
  {
    method: 'put',
    path: '/api/follows/{topic_id}',
    tag: 'Follows',
    summary: 'Follow a topic',
    description: 'No body. Following again changes nothing. A topic that does not exist or was deleted: `404`.',
    auth: 'required',
    params: { topic_id: "The topic's id." },
    answers: { 200: { description: 'Followed.', schema: followedTopicSchema } },
    errors: ['not-found'],
  },
  {
    method: 'delete',
    path: '/api/follows/{topic_id}',
    tag: 'Follows',
    summary: 'Unfollow a topic',
    description:
      'No body. `204` also when the topic was not followed. The unfollow is kept: creating or replying in the topic later does not follow it again.',
    auth: 'required',
    params: { topic_id: "The topic's id." },
    answers: { 204: { description: 'Unfollowed (or was not followed).' } },
  },
  // ---- Web Push (issue 26) ----
  {
    method: 'get',
    path: '/api/push/config',
    tag: 'Push',
    summary: 'The key a device subscribes to pushes with',
    description: 'Public. `503` when the server has no VAPID keys.',
    auth: 'none',
    answers: { 200: { description: 'The VAPID public key.', schema: pushConfigSchema } },
    errors: ['unavailable'],
  },
  {
    method: 'put',
    path: '/api/push/subscription',
    tag: 'Push',
    summary: "Turn push on for this device (the browser's PushSubscription)",
    description:
      "The body is the browser's `PushSubscription.toJSON()`. The endpoint must be https on the default port to a public host (`400` " +
      "otherwise). A device that was another user's becomes the caller's and loses the pushes queued for the other. At most " +
      `${PUSH_LIMITS.devicesPerUser} devices per user: past it the oldest is turned off. \`201\` for a new device, \`200\` when it was already the caller's.`,
    auth: 'required',
    body: { schema: subscriptionSchema, required: true },
    answers: {
      200: { description: 'Already on for the caller (keys updated).', schema: pushSubscriptionSavedSchema },
      201: { description: 'Turned on.', schema: pushSubscriptionSavedSchema },
    },
    errors: ['invalid-argument', 'unavailable'],
  },
  {
    method: 'delete',
    path: '/api/push/subscription',
    tag: 'Push',
    summary: 'Turn push off for this device',
    description: "`404` when the endpoint is not one of the caller's devices. The queued pushes to it are dropped.",
    auth: 'required',
    body: { schema: unsubscribeDeviceSchema, required: true },
    answers: { 204: { description: 'Turned off.' } },
    errors: ['invalid-argument', 'not-found', 'unavailable'],
  },
  // ---- weekly mail ----
  {
    method: 'post',
    path: '/api/unsubscribe',
    tag: 'Weekly mail',
    summary: 'One-click unsubscribe from the weekly summary (RFC 8058)',
    description:
      "No sign-in: the mail's signed token is the proof, in `?token=` or as `token` in a form or JSON body. `503` when the server has " +
      'no mail signing key. Counted as an expensive read per address.',
    auth: 'none',
    query: z.object({ token: z.string().optional().describe("The mail's signed token.") }),
    body: { schema: unsubscribeBody, required: false, formToo: true },
    answers: { 200: { description: 'Unsubscribed.', schema: unsubscribedSchema } },
    errors: ['invalid-argument', 'link-expired'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/unsubscribe',
    tag: 'Weekly mail',
    summary: 'The unsubscribe link opened in a browser',
    description: 'Changes nothing: sends the browser on to the page that confirms with the POST.',
    auth: 'none',
    query: z.object({ token: z.string().optional().describe("The mail's signed token.") }),
    answers: { 303: { description: 'To `/unsubscribe?token=…`.', headers: { Location: 'The confirming page.' } } },
  },
  // ---- sync (docs/SYNC.md) ----
  {
    method: 'get',
    path: '/api/sync/stream',
    tag: 'Sync',
    summary: 'The live stream of changes',
    description:
      "Server-sent events: each event's data is a `StreamEvent` as JSON; `: ping` comments are heartbeats. Anonymous callers get the " +
      'public collections only. `topics` is a comma-separated list of up to 200 topic ids whose responses to follow.',
    auth: 'optional',
    query: streamQuery,
    answers: { 200: { description: 'The event stream.', contentType: 'text/event-stream', schema: z.string() } },
    errors: ['invalid-argument'],
    limited: true,
  },
  {
    method: 'post',
    path: '/api/sync/responses/pull',
    tag: 'Sync',
    summary: 'Pull the responses of several topics at once',
    description: 'Up to 200 topics and 1,000 documents in one call; anonymous allowed.',
    auth: 'optional',
    body: { schema: responsesPullBody, required: true },
    answers: { 200: { description: 'The page of documents.', schema: responsesPullAnswerSchema } },
    errors: ['invalid-argument'],
    limited: true,
  },
  {
    method: 'get',
    path: '/api/sync/{collection}/pull',
    tag: 'Sync',
    summary: "Pull a collection's documents after a checkpoint",
    description: `The private collections (${PRIVATE_COLLECTIONS.join(', ')}) are the caller's own and need a token; \`limit\` at most 1000.`,
    auth: 'optional',
    params: collectionParam,
    query: pullQuery,
    queryNotes: {
      id: "The checkpoint's id (default: the start).",
      seq: "The checkpoint's seq (default 0).",
      limit: '1–1000, default 100.',
      topic_id: 'responses only: one topic.',
    },
    answers: { 200: { description: 'The page of documents.', schema: pullAnswerSchema } },
    errors: ['invalid-argument', 'not-found'],
    limited: true,
  },
  {
    method: 'post',
    path: '/api/sync/{collection}/push',
    tag: 'Sync',
    summary: "Push the caller's changes to a collection",
    description: 'At most 200 rows, taken whole or refused whole by the write limit (each row counts as one write).',
    auth: 'required',
    params: collectionParam,
    body: { schema: pushBodySchema, required: true },
    answers: { 200: { description: 'What the server did not take as sent.', schema: pushAnswerSchema } },
    errors: ['invalid-argument', 'not-found'],
  },
];
