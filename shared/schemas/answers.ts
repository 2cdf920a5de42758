// The shapes the REST API answers with, as zod schemas: the source of the OpenAPI document's answers
// (sync-server/src/openapi/) and so of docs/API.md, and of the TypeScript types of shared/types.ts and
// the sync tombstones (z.infer), so each shape is written once. Each named schema is a component of
// the document (`.meta({ id })`).
import { z } from 'zod';
import { CATEGORIES, MODERATION_STATES, ROLES, NOTIFICATION_TYPES, RESPONSE_TYPES, STANCES, TARGET_TYPES } from '../constants.js';
import { ERROR_STATUS, type ErrorBody } from '../errors.js';

export const id = z.string().describe('An opaque id: 1–64 of [A-Za-z0-9_-].');
export const time = z.string().describe('ISO 8601 UTC.');
export const count = z.number().int().nonnegative();
export const score = z.number().int();

export const errorBodySchema = z
  .object({
    error: z.string().describe('A message for a person.'),
    code: z
      .enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS])
      .optional()
      .describe('For programs to branch on (shared/errors.ts).'),
  })
  .meta({ id: 'Error', description: 'Every error answer: a text for a person and a stable code.' });

export const healthSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Health' });

/** GET /api/ready: whether this process should be sent traffic (sync-server/src/http/readiness.ts). */
export const readyStateSchema = z.enum(['starting', 'migrating', 'serving', 'draining']);
export type ReadyState = z.infer<typeof readyStateSchema>;
export const readySchema = z
  .object({
    ready: z.boolean().meta({ description: 'true only while serving.' }),
    state: readyStateSchema.meta({
      description: 'starting: opening the database; migrating: applying migrations; serving; draining: shutting down (SIGTERM).',
    }),
  })
  .meta({ id: 'Ready' });
export type ReadyAnswer = z.infer<typeof readySchema>;

export const clientConfigSchema = z
  .object({
    firebase: z.object({ apiKey: z.string(), authDomain: z.string(), projectId: z.string(), appId: z.string().optional() }),
    authEmulatorHost: z.string().nullable().describe('"host:port" of the Auth emulator, only when the server uses one.'),
    discordUrl: z.string().nullable(),
    supportUrl: z.string().nullable(),
  })
  .meta({ id: 'ClientConfig', description: "The web app's Firebase settings and the header's external links." });

/** A topic's or response's moderation: while set, its text is the replacement everyone reads. */
const moderated = {
  moderation: z
    .enum(MODERATION_STATES)
    .nullable()
    .describe('`removed` by a moderator (the text reads "Removed by a moderator: {reason}") or `hidden` pending review; null: neither.'),
  moderation_reason: z.string().nullable().describe("The moderator's reason of a removal."),
};

export const topicSchema = z
  .object({
    id,
    title: z.string(),
    categories: z.array(z.enum(CATEGORIES)),
    created_at: time,
    username: z.string().nullable(),
    creator_uid: z.string(),
    score,
    user_has_upvoted: z.boolean(),
    user_has_downvoted: z.boolean(),
    responses_count: count,
    locked: z.boolean().describe('A moderator locked it: no new responses.'),
    ...moderated,
  })
  .meta({ id: 'Topic' });

export const sourceSchema = z
  .object({ id, url: z.string(), name: z.string().nullable(), description: z.string().nullable() })
  .meta({ id: 'Source' });

export const sourceCitationSchema = z
  .object({ id, topic_id: id, topic_title: z.string(), created_at: time })
  .meta({ id: 'SourceCitation', description: 'A live response that cites a source (link: /topics/{topic_id}#response-{id}).' });

export const sourceListingSchema = sourceSchema
  .extend({ cited_by: z.array(sourceCitationSchema), cited_count: count })
  .meta({ id: 'SourceListing', description: 'A source with its newest citing responses (`include=citations`).' });

export const quotedResponseSchema = z.object({ id, content: z.string(), username: z.string().nullable() }).meta({ id: 'QuotedResponse' });

export const responseVersionSchema = z
  .object({
    version: z.number().int().positive().describe('1 for the text as first posted, then one more per kept edit.'),
    content: z.string().describe('The text as it was then, Markdown source as written.'),
    created_at: time.describe('When this text was saved: the posting, or the last edit before it was replaced.'),
  })
  .meta({
    id: 'ResponseVersion',
    description: 'An earlier text of an edited response. An edit within 5 minutes of posting keeps none (it folds into the first version).',
  });

export const responseSchema = z
  .object({
    id,
    content: z
      .string()
      .describe('The text as written, in the Markdown subset (links, emphasis, quotes, lists, code; no HTML, no images): see Formatting.'),
    type: z.enum(RESPONSE_TYPES),
    topic_id: id,
    parent_response_id: id.nullable(),
    quoted_response: quotedResponseSchema.nullable(),
    quoted_response_id: id.nullable(),
    sources: z.array(sourceSchema),
    created_at: time,
    edited_at: time.nullable().describe('When the author last changed its content, quote or sources; null: never edited.'),
    versions: z
      .array(responseVersionSchema)
      .describe('Its earlier texts, oldest first: the one first posted and the last 20; [] while moderated (a restore brings them back).'),
    username: z.string().nullable(),
    creator_uid: z.string(),
    score,
    user_has_upvoted: z.boolean(),
    user_has_downvoted: z.boolean(),
    comment_count: count,
    ...moderated,
  })
  .meta({ id: 'Response' });

export const responseMappingSchema = z.object({ id, parent_response_id: id.nullable() }).meta({ id: 'ResponseMapping' });

export const userScoreSchema = z
  .object({
    uid: z.string(),
    points: score,
    rank: z.number().int().positive(),
    persuasion_points: score.optional().describe('Only with `include=persuasion`.'),
  })
  .meta({ id: 'UserScore' });

export const leaderboardEntrySchema = z
  .object({
    uid: z.string(),
    display_name: z.string().nullable(),
    points: score,
    rank: z.number().int().positive(),
    persuasion_points: score.optional().describe('Only with `include=persuasion`: the part of points earned by Δ.'),
  })
  .meta({ id: 'LeaderboardEntry' });

export const userTopicSchema = z
  .object({ id, title: z.string(), created_at: time, score, responses_count: count })
  .meta({ id: 'UserTopic' });

export const userResponseSchema = z
  .object({ id, topic_id: id, topic_title: z.string(), type: z.enum(RESPONSE_TYPES), content: z.string(), created_at: time, score })
  .meta({ id: 'UserResponse' });

export const userProfileSchema = z
  .object({
    uid: z.string(),
    display_name: z.string().nullable(),
    points: score,
    persuasion_points: score,
    rank: z.number().int().positive(),
    role: z.enum(ROLES).describe('member, moderator or admin: staff are shown as such.'),
    topics: z.array(userTopicSchema),
    responses: z.array(userResponseSchema),
  })
  .meta({ id: 'UserProfile', description: "A user's public page (latest 50 topics and responses)." });

export const notificationSchema = z
  .object({
    id,
    type: z.enum(NOTIFICATION_TYPES),
    actor_display_name: z.string(),
    target_summary: z.string(),
    target_id: id,
    created_at: time,
    is_read: z.boolean(),
  })
  .meta({ id: 'Notification' });

export const preferencesAnswerSchema = z.object({ receive_weekly_summary: z.boolean() }).meta({ id: 'Preferences' });

export const blockedUserSchema = z
  .object({ uid: id, display_name: z.string().nullable(), updated_at: time })
  .meta({ id: 'BlockedUser', description: 'A user the caller blocked; nobody else ever reads it.' });

export const followedTopicSchema = z
  .object({ topic_id: id, title: z.string().nullable(), following: z.boolean(), updated_at: time })
  .meta({ id: 'FollowedTopic', description: 'A topic the caller follows; nobody else ever reads it.' });

export const pushConfigSchema = z
  .object({
    public_key: z.string().describe('The VAPID public key (RFC 8292), base64url: `applicationServerKey` of `pushManager.subscribe`.'),
  })
  .meta({ id: 'PushConfig' });

export const pushSubscriptionSavedSchema = z
  .object({ endpoint: z.string(), created_at: time })
  .meta({ id: 'PushSubscriptionSaved', description: "This device's push subscription, now the caller's." });

export const unsubscribedSchema = z.object({ ok: z.literal(true), receive_weekly_summary: z.literal(false) }).meta({ id: 'Unsubscribed' });

export const upvoteResultSchema = z
  .object({ target_type: z.enum(TARGET_TYPES), target_id: id, score, user_has_upvoted: z.boolean() })
  .meta({ id: 'UpvoteResult' });

export const voteResultSchema = z
  .object({
    target_type: z.enum(TARGET_TYPES),
    target_id: id,
    score,
    user_has_upvoted: z.boolean().meta({ description: 'The caller agrees (the upvote).' }),
    user_has_downvoted: z.boolean().meta({ description: 'The caller disagrees (the downvote).' }),
    user_has_passed: z.boolean().meta({ description: 'The caller passed: read it, no opinion.' }),
  })
  .meta({ id: 'VoteResult', description: "The target's score (agree votes) and the caller's vote on it, at most one of the three." });

export const myStanceSchema = z
  .object({
    topic_id: id,
    stance: z.enum(STANCES),
    first_stance: z.enum(STANCES),
    history: z.array(z.object({ stance: z.enum(STANCES), at: time })),
    credits: z.array(id).describe('Responses credited with Δ for the latest change of stance.'),
    updated_at: time,
  })
  .meta({ id: 'MyStance', description: "The caller's own stance (never anyone else's)." });

export const topicStancesSchema = z
  .object({
    topic_id: id,
    agree: count,
    disagree: count,
    unsure: count,
    minds_changed: count.describe('Participants whose current stance differs from their first.'),
    responses: z.object({ for: count, against: count, neutral: count }).describe('Live responses by type.'),
  })
  .meta({ id: 'TopicStances', description: "The public aggregate of a topic's stances and responses." });

export const commonGroundEntrySchema = z
  .object({
    response_id: id,
    upvotes_agree: count,
    upvotes_disagree: count,
    downvotes_agree: count.describe('Disagree votes from people whose stance was agree when they voted.'),
    downvotes_disagree: count.describe('Disagree votes from people whose stance was disagree when they voted.'),
    delta_count: count,
    score: z.number(),
    common_ground: z.boolean(),
  })
  .meta({ id: 'CommonGroundEntry', description: "A response's standing with both sides (docs/COMMON-GROUND.md)." });

export const categoriesSchema = z.array(z.enum(CATEGORIES)).meta({ id: 'Categories' });

// ---- sync (docs/SYNC.md) ----

export const checkpointSchema = z.object({ id: z.string(), seq: count }).meta({ id: 'SyncCheckpoint' });

/** What every replicated document carries: the server's change number and whether it is deleted. */
export const replicated = {
  seq: count.describe("The server's change number of this state; 0 for one it has not seen."),
  _deleted: z.boolean(),
};

/** A deleted topic or notification: only what a device needs to remove it. */
export const tombstoneSchema = z.object({ id, seq: count, _deleted: z.literal(true) }).meta({ id: 'Tombstone' });

export const responseTombstoneSchema = z
  .object({ id, topic_id: id, parent_response_id: id.nullable(), seq: count, _deleted: z.literal(true) })
  .meta({ id: 'ResponseTombstone' });

/** A document as a client pushes it: the collection's fields it may set are checked by the server (docs/SYNC.md). */
export const pushedDocumentSchema = z
  .looseObject({ id })
  .meta({ id: 'PushedDocument', description: "A document of the path's collection, as the client holds it (docs/SYNC.md)." });

// ---- the error body of shared/errors.ts is this schema's (a compile-time check) ----

/** True only when A and B are the same type (not merely assignable one way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(check: Same<A, B>) => check;

same<z.infer<typeof errorBodySchema>, ErrorBody>(true);
