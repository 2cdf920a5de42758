// The entities as they travel over the REST API (snake_case). The answers' shapes are
// written once, as the zod schemas the OpenAPI document describes them with (shared/schemas/), and
// inferred here.
import type { ReportReason, ReportStatus, ReportTargetType } from './constants.js';
import type { z } from 'zod';
import type {
  blockedUserSchema,
  commonGroundEntrySchema,
  followedTopicSchema,
  leaderboardEntrySchema,
  myStanceSchema,
  notificationSchema,
  preferencesAnswerSchema,
  quotedResponseSchema,
  responseVersionSchema,
  responseMappingSchema,
  responseSchema,
  sourceCitationSchema,
  sourceListingSchema,
  sourceSchema,
  topicSchema,
  topicStancesSchema,
  upvoteResultSchema,
  voteResultSchema,
  userProfileSchema,
  userResponseSchema,
  userScoreSchema,
  userTopicSchema,
} from './schemas/answers.js';
import type {
  moderatedOriginalSchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  moderationQueuePageSchema,
  queueTargetSchema,
  moderatedUserSchema,
  reportSchema,
  roleChangeSchema,
} from './schemas/moderation-answers.js';

export type Topic = z.infer<typeof topicSchema>;

export type Source = z.infer<typeof sourceSchema>;

/** A live response that cites a source: where to link (`/topics/{topic_id}#response-{id}`). */
export type SourceCitation = z.infer<typeof sourceCitationSchema>;

/**
 * A row of GET /api/sources?include=citations: the source, its newest citing responses and how many
 * cite it. The list is paged (`limit`, `offset`); the answer's `X-Total-Count` and `X-Next-Offset`
 * headers (and a `Link: rel="next"`) say what is left.
 */
export type SourceListing = z.infer<typeof sourceListingSchema>;

export type QuotedResponse = z.infer<typeof quotedResponseSchema>;

export type Response = z.infer<typeof responseSchema>;

/** An earlier text of an edited response (shared/rules/edit-history.ts says which edits keep one). */
export type ResponseVersion = z.infer<typeof responseVersionSchema>;

export type ResponseMapping = z.infer<typeof responseMappingSchema>;

export type UserScore = z.infer<typeof userScoreSchema>;

export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** A topic as a user page lists it. */
export type UserTopic = z.infer<typeof userTopicSchema>;

/** A response as a user page lists it (with its topic's title for the link). */
export type UserResponse = z.infer<typeof userResponseSchema>;

/** GET /api/users/{uid}: a user's public page. */
export type UserProfile = z.infer<typeof userProfileSchema>;

export type Notification = z.infer<typeof notificationSchema>;

/** A topic the caller follows: GET /api/follows, PUT /api/follows/{topic_id}. Only the caller reads it. */
export type FollowedTopic = z.infer<typeof followedTopicSchema>;

/** A user the caller blocked: GET /api/blocks, PUT /api/blocks/{uid}. Only the caller ever reads it. */
export type BlockedUser = z.infer<typeof blockedUserSchema>;

export type Preferences = z.infer<typeof preferencesAnswerSchema>;

export type UpvoteResult = z.infer<typeof upvoteResultSchema>;

export type VoteResult = z.infer<typeof voteResultSchema>;

/**
 * The first screen of a page as data, embedded by the server in the page it sends to a first visit
 * (no service worker yet), so the rows paint with the shell instead of after the local database has
 * opened and pulled (first load). As a signed-out visitor sees it (no votes of the viewer).
 */
export interface FirstPageData {
  /** `/` and `/c/{category}`: the first page of topics, hot first. */
  topics?: { sort: 'hot'; category: string | null; items: Topic[] };
  /** `/topics/{id}`: the topic and its first screen of root responses. */
  topic?: Topic;
  responses?: Response[];
  /** `/topics/{id}/responses/{responseId}`: the response that address names (its share card). */
  response?: Response;
  /** `/topics/{id}`: its participants' stances (as GET /api/topics/{id}/stances, without the responses' count by type). */
  stances?: Omit<TopicStances, 'responses'>;
  /**
   * `/topics/{id}`: the strongest case on each side as the server ranks it (shared/rules/strongest-case.ts),
   * shown until the device has the topic's responses to rank them itself; absent for a moderated topic.
   */
  strongest?: { for: FirstScreenArgument[]; against: FirstScreenArgument[] };
}

/** An argument of the strongest case: its words, its author's name and the votes by side its line reads. */
export interface FirstScreenArgument {
  id: string;
  content: string;
  username: string | null;
  upvotes_agree: number;
  upvotes_disagree: number;
  downvotes_agree: number;
  downvotes_disagree: number;
}

/** GET/PUT /api/topics/{id}/stance: the caller's own stance (never anyone else's). */
export type MyStance = z.infer<typeof myStanceSchema>;

/** GET /api/topics/{id}/stances: the public aggregate of a topic's stances and responses. */
export type TopicStances = z.infer<typeof topicStancesSchema>;

/** A row of GET /api/topics/{id}/common-ground: a response's standing with both sides, best first. */
export type CommonGroundEntry = z.infer<typeof commonGroundEntrySchema>;

// ---- moderation ----

/** POST /api/reports: the caller's report (one per reporter and target). */
export type Report = z.infer<typeof reportSchema>;

/** One report of a queue item, as moderators read it (the reporter's identity is for them only). */
export interface QueueReport {
  reporter_uid: string;
  reporter_name: string | null;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
}

/** The reported item as a moderator judges it: the author's own text, even when removed or hidden. */
export type QueueTarget = z.infer<typeof queueTargetSchema>;

/** GET /api/moderation/reports: the reports of one target, grouped. */
export interface ModerationQueueItem {
  target_type: ReportTargetType;
  target_id: string;
  /** 'open' while any of its reports is open. */
  status: ReportStatus;
  target: QueueTarget;
  reports: QueueReport[];
  /** Distinct reporters (of the listed status). */
  reporters: number;
  first_reported_at: string;
  last_reported_at: string;
}

export type ModerationQueuePage = z.infer<typeof moderationQueuePageSchema>;

/** GET /api/moderation/log: one action, newest first. */
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;

/** GET /api/moderation/original/{target_type}/{id}: a moderated item's own text, for its author and moderators. */
export type ModeratedOriginal = z.infer<typeof moderatedOriginalSchema>;

/** GET /api/moderation/log: newest first. */
export type ModerationLogPage = z.infer<typeof moderationLogPageSchema>;

/** PUT /api/users/{uid}/role: the user's role now. */
export type RoleChange = z.infer<typeof roleChangeSchema>;

/** GET /api/moderation/users/{uid}: a user's role and running suspension (moderators). */
export type ModeratedUser = z.infer<typeof moderatedUserSchema>;

/*
 * The moderation calls, for both sides:
 *   POST /api/reports {target_type, target_id, reason, note?}      → 201 Report (200: an open report updated)
 *   GET  /api/moderation/reports?status=open|handled&limit&offset  → ModerationQueuePage
 *   POST /api/moderation/actions {action, target_type, target_id, reason, days?} → 200 ModerationLogEntry
 *   GET  /api/moderation/log?limit&offset                          → ModerationLogPage
 *   GET  /api/moderation/original/{topic|response}/{id}             → ModeratedOriginal (author and moderators)
 *   GET  /api/moderation/users/{uid}                                → ModeratedUser
 *   PUT  /api/users/{uid}/role {role: member|moderator}             → RoleChange (admins)
 * All /api/moderation calls are 401 signed out and 403 for members.
 */
