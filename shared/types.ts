// The entities of SPEC.md §3 as they travel over the REST API (snake_case).
import type {
  Category,
  ModerationLogAction,
  ModerationState,
  NotificationType,
  ReportReason,
  ReportStatus,
  ReportTargetType,
  ResponseType,
  Role,
  Stance,
  TargetType,
} from './constants.js';

export interface Topic {
  id: string;
  title: string;
  categories: Category[];
  created_at: string;
  username: string | null;
  creator_uid: string;
  score: number;
  user_has_upvoted: boolean;
  user_has_downvoted: boolean;
  responses_count: number;
  /** A moderator locked it: no new responses (issue 23). */
  locked: boolean;
  /** Removed by a moderator or hidden pending review (the title is then the replacement text); else null. */
  moderation: ModerationState | null;
  moderation_reason: string | null;
}

export interface Source {
  id: string;
  url: string;
  name: string | null;
  description: string | null;
}

/** A live response that cites a source: where to link (`/topics/{topic_id}#response-{id}`). */
export interface SourceCitation {
  id: string;
  topic_id: string;
  topic_title: string;
  created_at: string;
}

/**
 * A row of GET /api/sources?include=citations: the source, its newest citing responses and how many
 * cite it. The list is paged (`limit`, `offset`); the answer's `X-Total-Count` and `X-Next-Offset`
 * headers (and a `Link: rel="next"`) say what is left.
 */
export interface SourceListing extends Source {
  cited_by: SourceCitation[];
  cited_count: number;
}

export interface QuotedResponse {
  id: string;
  content: string;
  username: string | null;
}

export interface Response {
  id: string;
  content: string;
  type: ResponseType;
  topic_id: string;
  parent_response_id: string | null;
  quoted_response: QuotedResponse | null;
  quoted_response_id: string | null;
  sources: Source[];
  created_at: string;
  /** When the author last changed its content, quote or sources (issue 24 #2); null: never. Votes leave it. */
  edited_at: string | null;
  username: string | null;
  creator_uid: string;
  score: number;
  user_has_upvoted: boolean;
  user_has_downvoted: boolean;
  comment_count: number;
  /** As Topic's: while set, content is the replacement text, sources [] and the quote null. */
  moderation: ModerationState | null;
  moderation_reason: string | null;
}

export interface ResponseMapping {
  id: string;
  parent_response_id: string | null;
}

export interface UserScore {
  uid: string;
  points: number;
  rank: number;
  /** Only with `?include=persuasion`, as on the leaderboard. */
  persuasion_points?: number;
}

export interface LeaderboardEntry {
  uid: string;
  display_name: string | null;
  points: number;
  rank: number;
  /** Only with `?include=persuasion` (SPEC.md §7's shape stays as it is): the part of points earned by Δ. */
  persuasion_points?: number;
}

/** A topic as a user page lists it. */
export interface UserTopic {
  id: string;
  title: string;
  created_at: string;
  score: number;
  responses_count: number;
}

/** A response as a user page lists it (with its topic's title for the link). */
export interface UserResponse {
  id: string;
  topic_id: string;
  topic_title: string;
  type: ResponseType;
  content: string;
  created_at: string;
  score: number;
}

/** GET /api/users/{uid}: a user's public page. */
export interface UserProfile {
  uid: string;
  display_name: string | null;
  points: number;
  /** The part of points earned by Δ credits (issue 13 #2). */
  persuasion_points: number;
  rank: number;
  /** The role the server last read from the user's token (issue 23): staff are shown as such. */
  role: Role;
  topics: UserTopic[];
  responses: UserResponse[];
}

export interface Notification {
  id: string;
  type: NotificationType;
  actor_display_name: string;
  target_summary: string;
  target_id: string;
  created_at: string;
  is_read: boolean;
}

/** A topic the caller follows (issue 26 #3): GET /api/follows, PUT /api/follows/{topic_id}. Only the caller reads it. */
export interface FollowedTopic {
  topic_id: string;
  /** The topic's title now (null once the topic is gone). */
  title: string | null;
  following: boolean;
  /** When the user last followed or unfollowed it. */
  updated_at: string;
}

/** A user the caller blocked (issue 23): GET /api/blocks, PUT /api/blocks/{uid}. Only the caller ever reads it. */
export interface BlockedUser {
  uid: string;
  display_name: string | null;
  /** When the block was made (or last changed). */
  updated_at: string;
}

export interface Preferences {
  receive_weekly_summary: boolean;
}

export interface UpvoteResult {
  target_type: TargetType;
  target_id: string;
  score: number;
  user_has_upvoted: boolean;
}

/**
 * The first screen of a page as data, embedded by the server in the page it sends to a first visit
 * (no service worker yet), so the rows paint with the shell instead of after the local database has
 * opened and pulled (issue 12, first load). As a signed-out visitor sees it (no votes of the viewer).
 */
export interface FirstPageData {
  /** `/` and `/c/{category}`: the first page of topics, hot first. */
  topics?: { sort: 'hot'; category: string | null; items: Topic[] };
  /** `/topics/{id}`: the topic and its first screen of root responses. */
  topic?: Topic;
  responses?: Response[];
  /** `/topics/{id}`: its participants' stances (as GET /api/topics/{id}/stances, without the responses' count by type). */
  stances?: Omit<TopicStances, 'responses'>;
}

/** GET/PUT /api/topics/{id}/stance: the caller's own stance (never anyone else's). */
export interface MyStance {
  topic_id: string;
  stance: Stance;
  first_stance: Stance;
  history: { stance: Stance; at: string }[];
  credits: string[];
  updated_at: string;
}

/** GET /api/topics/{id}/stances: the public aggregate of a topic's stances and responses. */
export interface TopicStances {
  topic_id: string;
  agree: number;
  disagree: number;
  unsure: number;
  /** Participants whose current stance differs from their first. */
  minds_changed: number;
  /** Live responses by type. */
  responses: Record<ResponseType, number>;
}

/** A row of GET /api/topics/{id}/common-ground: a response's standing with both sides, best first. */
export interface CommonGroundEntry {
  response_id: string;
  upvotes_agree: number;
  upvotes_disagree: number;
  delta_count: number;
  /** shared/rules/common-ground.ts commonGroundScore. */
  score: number;
  common_ground: boolean;
}

// ---- moderation (issue 23) ----

/** POST /api/reports: the caller's report (one per reporter and target). */
export interface Report {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
}

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
export interface QueueTarget {
  /** A topic's title, a response's content, a user's display name. */
  text: string;
  sources: Source[];
  /** The topic the item is in (a topic: itself; a user: null), and its title, for the link. */
  topic_id: string | null;
  topic_title: string | null;
  /** Where the item is: `/topics/{id}`, `/topics/{topic}#response-{id}` or `/users/{uid}`. */
  link: string;
  author_uid: string;
  author_name: string | null;
  author_role: Role;
  created_at: string | null;
  /** The author deleted it. */
  deleted: boolean;
  moderation: ModerationState | null;
  moderation_reason: string | null;
  /** Topics only. */
  locked: boolean;
  /** Users (and any item's author): suspended until, else null. */
  suspended_until: string | null;
}

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

export interface ModerationQueuePage {
  items: ModerationQueueItem[];
  /** Targets of this status in all. */
  total: number;
}

/** GET /api/moderation/log: one action, newest first. */
export interface ModerationLogEntry {
  id: string;
  /** Who acted (null: the automatic hide). */
  moderator_uid: string | null;
  moderator_name: string | null;
  action: ModerationLogAction;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  /** A timed suspension's length; a role change's new role is in `reason`. */
  days: number | null;
  created_at: string;
}

/** GET /api/moderation/original/{target_type}/{id}: a moderated item's own text, for its author and moderators. */
export interface ModeratedOriginal {
  target_type: 'topic' | 'response';
  target_id: string;
  /** A topic's title or a response's content. */
  text: string;
  sources: Source[];
  quoted_response_id: string | null;
  moderation: ModerationState | null;
  moderation_reason: string | null;
}

/** GET /api/moderation/log: newest first. */
export interface ModerationLogPage {
  items: ModerationLogEntry[];
  total: number;
}

/** PUT /api/users/{uid}/role: the user's role now. */
export interface RoleChange {
  uid: string;
  role: Role;
}

/*
 * The moderation calls (issue 23), for both sides:
 *   POST /api/reports {target_type, target_id, reason, note?}      → 201 Report (200: an open report updated)
 *   GET  /api/moderation/reports?status=open|handled&limit&offset  → ModerationQueuePage
 *   POST /api/moderation/actions {action, target_type, target_id, reason, days?} → 200 ModerationLogEntry
 *   GET  /api/moderation/log?limit&offset                          → ModerationLogPage
 *   GET  /api/moderation/original/{topic|response}/{id}             → ModeratedOriginal (author and moderators)
 *   PUT  /api/users/{uid}/role {role: member|moderator}             → RoleChange (admins)
 * All /api/moderation calls are 401 signed out and 403 for members.
 */
