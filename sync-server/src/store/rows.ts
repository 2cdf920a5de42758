// The rows both engines answer with, as the Store interface (types.ts) returns them, and the
// mappers from a row to its API shape (shared/types.ts). Plain data: no engine, no driver.
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
} from '../../../shared/constants.js';
import type { StanceChange } from '../../../shared/sync-protocol.js';
import type { Notification, Response, Source, Topic } from '../../../shared/types.js';

/** How the copy to PostgreSQL reads a table: its rows' order in SQLite, and whether PostgreSQL numbers them. */
export interface TableInfo {
  order: 'rowid' | 'pk';
  identity?: true;
}

/**
 * The tables of the schema, as both engines hold them (each engine's own bookkeeping aside: SQLite's
 * meta and FTS5 tables, PostgreSQL's crux_meta and search tables), in an order their references allow
 * (the copy to PostgreSQL, store/pg/copy-from-sqlite.ts, follows this literal's order), with what
 * orders a table's rows as SQLite wrote them and whether PostgreSQL numbers its rows (an identity
 * `pk`, continued after the copied keys). A new table is one entry here;
 * tests/sync-server/engines-agree.test.ts checks this list against SQLite's schema.
 */
const TABLE_LIST = {
  users: { order: 'rowid' },
  topics: { order: 'pk', identity: true },
  responses: { order: 'pk', identity: true },
  sources: { order: 'pk', identity: true },
  response_sources: { order: 'rowid' },
  votes: { order: 'rowid', identity: true },
  notifications: { order: 'rowid', identity: true },
  stances: { order: 'rowid' },
  deltas: { order: 'rowid' },
  mail_runs: { order: 'rowid' },
  mail_sends: { order: 'rowid' },
  mail_points: { order: 'rowid' },
  mail_state: { order: 'rowid' },
  mail_common_ground: { order: 'rowid' },
  blocks: { order: 'rowid' },
  moderated_originals: { order: 'rowid' },
  reports: { order: 'rowid' },
  moderation_log: { order: 'pk', identity: true },
  push_subscriptions: { order: 'rowid' },
  push_queue: { order: 'rowid' },
  topic_follows: { order: 'rowid' },
} as const satisfies Record<string, TableInfo>;
export type Table = keyof typeof TABLE_LIST;
export const TABLES: Readonly<Record<Table, TableInfo>> = TABLE_LIST;

// Topics

export interface TopicRow {
  id: string;
  title: string;
  category: string;
  creator_uid: string;
  created_at: string;
  score: number;
  responses_count: number;
  /** The live responses of each type (maintained like responses_count). */
  responses_for: number;
  responses_against: number;
  responses_neutral: number;
  hot: number;
  stance_agree: number;
  stance_disagree: number;
  stance_unsure: number;
  minds_changed: number;
  deleted: number;
  seq: number;
  /** 1: a moderator locked it (no new responses). */
  locked: number;
  /** Removed or hidden pending review (the title is then the replacement text); null: neither. */
  moderation: ModerationState | null;
  moderation_reason: string | null;
  /** The opinion groups summary as JSON (shared/rules/opinion-groups.ts); null until first computed. */
  opinion_groups: string | null;
  username: string | null;
  user_has_upvoted: number;
}

/** A topic's stance counters (issue 13), in this column order. */
export interface StanceCounts {
  stance_agree: number;
  stance_disagree: number;
  stance_unsure: number;
  minds_changed: number;
}

export function toTopic(row: TopicRow): Topic {
  return {
    id: row.id,
    title: row.title,
    categories: [row.category as Category],
    created_at: row.created_at,
    username: row.username,
    creator_uid: row.creator_uid,
    score: row.score,
    user_has_upvoted: row.user_has_upvoted === 1,
    user_has_downvoted: false,
    responses_count: row.responses_count,
    locked: row.locked === 1,
    moderation: row.moderation,
    moderation_reason: row.moderation_reason,
  };
}

// Responses

export interface ResponseRow {
  id: string;
  topic_id: string;
  parent_response_id: string | null;
  quoted_response_id: string | null;
  type: ResponseType;
  content: string;
  creator_uid: string;
  created_at: string;
  updated_at: string;
  /** When the author last changed the content, quote or sources (null: never); votes and moderation leave it. */
  edited_at: string | null;
  score: number;
  comment_count: number;
  delta_count: number;
  upvotes_agree: number;
  upvotes_disagree: number;
  deleted: number;
  seq: number;
  /** As TopicRow's: while set, content is the replacement text, sources and quote are cleared. */
  moderation: ModerationState | null;
  moderation_reason: string | null;
  username: string | null;
  user_has_upvoted: number;
  quoted_content: string | null;
  quoted_username: string | null;
  quoted_live: number | null;
}

/** A live response's standing with each side of its topic (issue 13). */
export interface StanceTally {
  id: string;
  created_at: string;
  upvotes_agree: number;
  upvotes_disagree: number;
  delta_count: number;
}

/**
 * What a write adds to a topic's maintained counters: its score (topic votes), and its live
 * responses by type (responses_count is their sum).
 */
export interface TopicCountsDelta {
  score?: number;
  responses?: Partial<Record<ResponseType, number>>;
}

/** What a write adds to a response's maintained counters (votes by the voter's stance at the time). */
export interface ResponseCountsDelta {
  score?: number;
  comments?: number;
  upvotesAgree?: number;
  upvotesDisagree?: number;
}

/** Where a page of a response list ends: the last row's order keys (RESPONSE_ORDER). */
export interface ResponsePosition {
  created_at: string;
  id: string;
}

export function toResponse(row: ResponseRow, sources: Source[]): Response {
  const quoteLive = row.quoted_response_id !== null && row.quoted_live === 1;
  return {
    id: row.id,
    content: row.content,
    type: row.type,
    topic_id: row.topic_id,
    parent_response_id: row.parent_response_id,
    quoted_response: quoteLive ? { id: row.quoted_response_id!, content: row.quoted_content!, username: row.quoted_username } : null,
    quoted_response_id: quoteLive ? row.quoted_response_id : null,
    sources,
    created_at: row.created_at,
    edited_at: row.edited_at,
    username: row.username,
    creator_uid: row.creator_uid,
    score: row.score,
    user_has_upvoted: row.user_has_upvoted === 1,
    user_has_downvoted: false,
    comment_count: row.comment_count,
    moderation: row.moderation,
    moderation_reason: row.moderation_reason,
  };
}

// Stances and Δ credits (issue 13)

/** A stance as stored, with its JSON columns read. */
export interface StanceRow {
  uid: string;
  topic_id: string;
  stance: Stance;
  first_stance: Stance;
  history: StanceChange[];
  credits: string[];
  updated_at: string;
  seq: number;
  /**
   * The first change (history index) that may earn Δ credits: 1, or 2 when the stance was first
   * recorded with a device's offline "before" the server never saw (issue 25). Written once.
   * Omitted when saving: 1.
   */
  credit_from?: number;
}

/** One Δ credit as stored: which response, in which topic, by whom it was written. */
export interface CreditRow {
  response_id: string;
  topic_id: string;
  author_uid: string;
  /**
   * 1 when the credit counts toward the author's persuasion points (a change the server recorded,
   * a creditor with standing when giving it), else 0; omitted when saving: 1.
   */
  counts?: number;
}

// Upvotes

export interface VoteRow {
  voter_uid: string;
  target_type: TargetType;
  target_id: string;
  target_creator_uid: string;
  topic_id: string;
  /** The voter's stance on the topic when the vote was (last) cast; null: none (issue 13). */
  stance: Stance | null;
  created_at: string;
  updated_at: string;
  deleted: number;
  seq: number;
}

// Blocks (issue 23)

/** One user the blocker blocked (or unblocked: blocked = 0, kept so the change replicates). */
/** A user's follow of a topic (issue 26 #3): `following` 0 keeps an explicit unfollow. */
export interface FollowRow {
  uid: string;
  topic_id: string;
  /** 1: following; 0: unfollowed since (the row stays, so auto-follow leaves it alone). */
  following: number;
  updated_at: string;
  seq: number;
  /** The topic's title now (joined; null once the topic is gone). */
  title: string | null;
}

export interface BlockRow {
  blocker_uid: string;
  blocked_uid: string;
  /** 1: blocked; 0: unblocked since. */
  blocked: number;
  updated_at: string;
  seq: number;
  /** The blocked user's current display name (joined from users; null: none). */
  display_name: string | null;
}

// Users

export interface UserRow {
  uid: string;
  display_name: string | null;
  email: string | null;
  /** Every point: live upvotes by others on the user's items plus persuasion_points. */
  points: number;
  /** Points earned by Δ credits on the user's live responses (issue 13). */
  persuasion_points: number;
  receive_weekly_summary: number;
  /** shared/push.ts PushSettings as JSON (issue 26). */
  push_settings: string;
  created_at: string;
  seq: number;
  /** 1: the token the e-mail came from said it was verified (issue 25); the weekly mail goes only there. */
  email_verified: number;
  /** The crux_role claim of the user's last verified token (issue 23). */
  role: Role;
  /** A moderator's suspension: until (SUSPENDED_FOR_GOOD: for good) and why; null: none. */
  suspended_until: string | null;
  suspension_reason: string | null;
}

/** A leaderboard row: total points and the part of them earned by Δ credits. */
export interface LeaderboardRow {
  uid: string;
  display_name: string | null;
  points: number;
  persuasion_points: number;
}

// Notifications

export interface NotificationRow {
  id: string;
  recipient_uid: string;
  type: NotificationType;
  actor_uid: string;
  actor_display_name: string | null;
  target_summary: string;
  target_id: string;
  response_id: string;
  response_deleted: number;
  created_at: string;
  is_read: number;
  deleted: number;
  seq: number;
}

/** Who a moderation notice says acted: never the moderator's name (issue 23). */
export const MODERATOR_ACTOR_NAME = 'A moderator';

export function toNotification(row: NotificationRow): Notification {
  const moderation = row.type === 'moderation_removed' || row.type === 'moderation_restored';
  return {
    id: row.id,
    type: row.type,
    actor_display_name: moderation ? MODERATOR_ACTOR_NAME : (row.actor_display_name ?? 'Anonymous'),
    target_summary: row.target_summary,
    target_id: row.target_id,
    created_at: row.created_at,
    is_read: row.is_read === 1,
  };
}

// Sources

/** How many citing responses each row of the sources page carries (the rest: /api/sources/{id}/responses). */
export const CITATIONS_PER_SOURCE = 5;

/** One citation of a response: the catalogue row of its URL, and the name and description its author gave. */
export interface CitationInput {
  sourceId: string;
  name?: string | null | undefined;
  description?: string | null | undefined;
}

// The weekly summary (migration 004-mail.sql)

export interface MailRecipient {
  uid: string;
  display_name: string | null;
  email: string;
}

export interface MailReply {
  id: string;
  topic_id: string;
  topic_title: string;
  /** 'topic' when it answers the recipient's topic at root level, 'response' when it answers their response. */
  replied_to: 'topic' | 'response';
  parent_content: string | null;
  type: 'for' | 'against' | 'neutral';
  content: string;
  author_name: string | null;
  created_at: string;
}

export interface MailTopTopic {
  id: string;
  title: string;
  category: string;
  score: number;
  responses_count: number;
}

export interface MailRun {
  id: string;
  kind: 'scheduled' | 'manual';
  period_start: string;
  period_end: string;
  status: 'running' | 'done';
  created_at: string;
  finished_at: string | null;
  sent: number;
  failed: number;
  skipped: number;
}

export interface MailSend {
  run_id: string;
  uid: string;
  email: string;
  status: 'sent' | 'failed';
  attempts: number;
  message_id: string | null;
  error: string | null;
  at: string;
}

export interface PointsSnapshot {
  points: number;
  rank: number;
}

/** An "against" reply to the recipient's response that they have not answered (issue 29 #4). */
export interface MailRebuttal {
  id: string;
  topic_id: string;
  topic_title: string;
  /** The recipient's response it argues against. */
  parent_content: string;
  content: string;
  author_name: string | null;
  created_at: string;
}

/** The recipient's response that cites no source and was challenged in the period (issue 29 #4). */
export interface MailChallenged {
  id: string;
  topic_id: string;
  topic_title: string;
  content: string;
  challenges: number;
  last_at: string;
}

/** One response of the recipient's side on a topic where they took a side (null upvotes: none). */
export interface MailSideTally {
  topic_id: string;
  topic_title: string;
  stance: 'agree' | 'disagree';
  stance_agree: number;
  stance_disagree: number;
  upvotes_agree: number | null;
  upvotes_disagree: number | null;
}

/** How many responses of the recipient's side were common ground on a topic when a run started. */
export interface CommonGroundCount {
  topic_id: string;
  common: number;
}

// Moderation (issue 23, migration 010-moderation.sql)

/** One user's report of one target (one per reporter and target). */
export interface ReportRow {
  reporter_uid: string;
  target_type: ReportTargetType;
  target_id: string;
  /** The target's author (a user: the user), as the server found it when reported. */
  target_author_uid: string;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
  seq: number;
}

/** A report with the reporter's display name (the moderators' queue). */
export interface QueueReportRow extends ReportRow {
  reporter_name: string | null;
}

/** One target of the moderators' queue: its reports of the listed status, summed up. */
export interface QueueTargetRow {
  target_type: ReportTargetType;
  target_id: string;
  target_author_uid: string;
  /** Distinct reporters (one report each). */
  reporters: number;
  first_reported_at: string;
  last_reported_at: string;
  /** 1: the target is hidden pending review (it tops the queue). */
  hidden: number;
}

/** A moderated item's own text, sources (JSON: [{source_id, url, name, description}]) and quote. */
export interface ModeratedOriginalRow {
  target_type: 'topic' | 'response';
  target_id: string;
  text: string;
  quoted_response_id: string | null;
  sources: string;
}

/** One line of the moderation log (moderator_uid null: the automatic hide). */
export interface ModerationLogRow {
  id: string;
  moderator_uid: string | null;
  action: ModerationLogAction;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  days: number | null;
  created_at: string;
}

export interface ModerationLogListRow extends ModerationLogRow {
  moderator_name: string | null;
}
