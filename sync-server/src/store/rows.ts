// The rows both engines answer with, the mappers from a row to its API shape (shared/types.ts), and
// the repositories that answer them (the Store's members, types.ts), declared once in
// `Repositories`. Plain data and interfaces: no engine, no driver.
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
  Sort,
  TargetType,
  VoteValue,
} from '../../../shared/constants.js';
import type { StanceChange } from '../../../shared/sync-protocol.js';
import type { ResponseVote } from '../../../shared/rules/opinion-groups.js';
import type {
  Notification,
  Response,
  ResponseVersion,
  Source,
  SourceCitation,
  SourceListing,
  Topic,
  UserResponse,
  UserTopic,
} from '../../../shared/types.js';

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
  response_versions: { order: 'rowid' },
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
  /** 1: the viewer's live vote is an agree (the upvote). */
  user_has_upvoted: number;
  /** The viewer's live vote (1 agree, -1 disagree, 0 pass); null: none, or no viewer. */
  user_vote: VoteValue | null;
}

/** A topic's stance counters, in this column order. */
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
    user_has_downvoted: row.user_vote === -1,
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
  /** Disagree votes by the voter's stance at the time (the author's own on no side). */
  downvotes_agree: number;
  downvotes_disagree: number;
  deleted: number;
  seq: number;
  /** As TopicRow's: while set, content is the replacement text, sources and quote are cleared. */
  moderation: ModerationState | null;
  moderation_reason: string | null;
  username: string | null;
  /** 1: the viewer's live vote is an agree (the upvote). */
  user_has_upvoted: number;
  /** The viewer's live vote (1 agree, -1 disagree, 0 pass); null: none, or no viewer. */
  user_vote: VoteValue | null;
  quoted_content: string | null;
  quoted_username: string | null;
  quoted_live: number | null;
}

/** A live response's standing with each side of its topic. */
export interface StanceTally {
  id: string;
  created_at: string;
  upvotes_agree: number;
  upvotes_disagree: number;
  downvotes_agree: number;
  downvotes_disagree: number;
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
  downvotesAgree?: number;
  downvotesDisagree?: number;
}

/** Where a page of a response list ends: the last row's order keys (RESPONSE_ORDER). */
export interface ResponsePosition {
  created_at: string;
  id: string;
}

/**
 * A page of responses as the UTF-8 bytes of its items' JSON, and where the next page starts. Bytes, not
 * a string: a kept string is encoded again on every send (measured: a bare route sending the same
 * 650 KB answered 228 req/s from a string, 706 from bytes).
 */
export interface ResponsePageText {
  json: Uint8Array<ArrayBuffer>;
  next: ResponsePosition | null;
}

/** A sync pull's page as the JSON array of its documents, how many, and the last one's checkpoint (null: none). */
export interface JsonChanges {
  json: Uint8Array<ArrayBuffer>;
  documents: number;
  checkpoint: Checkpoint | null;
}

/** A page of a topic's (id, parent) pairs, already serialised (ResponsesRepo.mappingsPage). */
export interface MappingsPageJson {
  json: string;
  next: ResponsePosition | null;
}

/**
 * A row with its citations and earlier texts as REST answers it. A moderated response shows no
 * earlier text (the versions wait, as its own text does, until a restore).
 */
export function toResponse(row: ResponseRow, sources: Source[], versions: readonly ResponseVersion[] = []): Response {
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
    versions: row.moderation === null && row.deleted === 0 ? [...versions] : [],
    username: row.username,
    creator_uid: row.creator_uid,
    score: row.score,
    user_has_upvoted: row.user_has_upvoted === 1,
    user_has_downvoted: row.user_vote === -1,
    comment_count: row.comment_count,
    moderation: row.moderation,
    moderation_reason: row.moderation_reason,
  };
}

// Stances and Δ credits

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
   * recorded with a device's offline "before" the server never saw. Written once.
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
  /** The voter's stance on the topic when the vote was (last) cast; null: none. */
  stance: Stance | null;
  /** 1 agree, -1 disagree, 0 pass; meaningless while deleted = 1 (no vote). */
  value: VoteValue;
  created_at: string;
  updated_at: string;
  deleted: number;
  seq: number;
}

// Blocks

/** One user the blocker blocked (or unblocked: blocked = 0, kept so the change replicates). */
/** A user's follow of a topic: `following` 0 keeps an explicit unfollow. */
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
  /** Points earned by Δ credits on the user's live responses. */
  persuasion_points: number;
  receive_weekly_summary: number;
  /** shared/push.ts PushSettings as JSON. */
  push_settings: string;
  created_at: string;
  seq: number;
  /** 1: the token the e-mail came from said it was verified; the weekly mail goes only there. */
  email_verified: number;
  /** The crux_role claim of the user's last verified token. */
  role: Role;
  /** A moderator's suspension: until (SUSPENDED_FOR_GOOD: for good) and why; null: none. */
  suspended_until: string | null;
  suspension_reason: string | null;
  /** When its owner deleted the account (the row is then a stub: domain/account.ts); null: a live account. */
  deleted_at: string | null;
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

/** Who a moderation notice says acted: never the moderator's name. */
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

/** An "against" reply to the recipient's response that they have not answered. */
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

/** The recipient's response that cites no source and was challenged in the period. */
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
  downvotes_agree: number | null;
  downvotes_disagree: number | null;
}

/** How many responses of the recipient's side were common ground on a topic when a run started. */
export interface CommonGroundCount {
  topic_id: string;
  common: number;
}

// Moderation (migration 010-moderation.sql)

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

export interface ModerationLogListRow extends ModerationLogRow, LogTarget {
  moderator_name: string | null;
}

/** What a logged action was about, by name (null: the target is gone). */
export interface LogTarget {
  /** The topic's title, the response's text (up to 200 characters), the user's display name. */
  target_name: string | null;
  /** A response's topic (null for other targets). */
  target_topic_id: string | null;
}

// The repositories: what the Store (types.ts) answers these rows through, each engine's
// implementation of it in store/sqlite/ and store/pg/.

/** Where a replication page starts: strictly after this (seq, id). */
export interface Checkpoint {
  seq: number;
  id: string;
}

export interface TopicInsert {
  id: string;
  title: string;
  category: string;
  creator_uid: string;
  created_at: string;
  seq: number;
}

export interface TopicListQuery {
  sort: Sort;
  category?: string | undefined;
  limit: number;
  offset: number;
  viewer: string | null;
}

export interface TopicsRepo {
  insert(row: TopicInsert): Promise<void>;
  /** The row, live or tombstoned, or undefined. */
  get(id: string, viewer: string | null): Promise<TopicRow | undefined>;
  /** Live topics in the sort's order (shared/rules/sort-order.ts TOPIC_ORDERS), optionally of one category. */
  list(query: TopicListQuery): Promise<TopicRow[]>;
  /** Live topics whose title matches an FTS query (shared/rules/search-words.ts ftsQuery), in the sort's order. */
  search(query: TopicListQuery & { match: string }): Promise<TopicRow[]>;
  /**
   * `search`'s page as the REST answer's JSON text (`JSON.stringify` of the rows' `toTopic`, byte for
   * byte) when the engine can write it itself (SQLite, from its title index); undefined: ask `search`.
   */
  searchJson?(query: TopicListQuery & { match: string }): Promise<string | undefined>;
  /**
   * The largest seq of the topics: every change to a topic row stamps a new one (page-cache.ts),
   * so a list or search page read at this version stays the answer until it moves.
   */
  listVersion(): Promise<number>;
  /** Recounts score and responses (by type too), recomputes the hot score and stamps `seq` (repairs and tests: O(topic size)). */
  refreshAggregates(id: string, createdAt: string, seq: number): Promise<void>;
  /** Adds to the maintained score and response counts (by type and total), recomputes the hot score and stamps `seq`: O(1). */
  addToCounts(id: string, delta: TopicCountsDelta, seq: number): Promise<void>;
  /**
   * Recounts the stance counters (agree, disagree, unsure, minds changed) from the topic's stances;
   * when they changed, stamps a new seq and returns true.
   */
  refreshStanceCounts(id: string, seq: () => Promise<number>): Promise<boolean>;
  softDelete(id: string, seq: number): Promise<void>;
  /** Stamps `seq` on every topic (live or not) of the creator, e.g. after they renamed; returns how many. */
  restampCreator(uid: string, seq: number): Promise<number>;
  changesSince(checkpoint: Checkpoint, limit: number, viewer: string | null): Promise<TopicRow[]>;
  /** changesSince as a pull's documents (topicDoc's JSON, byte for byte), where the database makes that text (SQLite); else null. */
  changesSinceJson(checkpoint: Checkpoint, limit: number): Promise<JsonChanges | null>;
  /** How many topics (deleted ones included) the user created at or after `sinceIso` (new-account limit). */
  countCreatedSince(uid: string, sinceIso: string): Promise<number>;
  /** The titles of the user's live topics created at or after `sinceIso`, at most `limit`, newest first (spam check). */
  recentTitles(uid: string, sinceIso: string, limit: number): Promise<string[]>;
}

export interface ResponseInsert {
  id: string;
  topic_id: string;
  parent_response_id: string | null;
  quoted_response_id: string | null;
  type: ResponseRow['type'];
  content: string;
  creator_uid: string;
  created_at: string;
  seq: number;
}

export interface ResponseUpdate {
  id: string;
  content: string;
  quoted_response_id: string | null;
  updated_at: string;
  /** When the author last changed the content, quote or sources: the new time, or the row's own when nothing changed. */
  edited_at: string | null;
  seq: number;
}

export interface ResponsesRepo {
  insert(row: ResponseInsert): Promise<void>;
  /** The row, live or tombstoned, or undefined. */
  get(id: string, viewer: string | null): Promise<ResponseRow | undefined>;
  /** A topic's live top-level responses, oldest first (RESPONSE_ORDER). */
  roots(topicId: string, viewer: string | null): Promise<ResponseRow[]>;
  /** A response's live direct replies, oldest first (RESPONSE_ORDER). */
  replies(parentId: string, viewer: string | null): Promise<ResponseRow[]>;
  /**
   * At most `limit` of the topic's live (id, parent) pairs after a position, in RESPONSE_ORDER, as the
   * JSON array the API answers (`[{"id":…,"parent_response_id":…}]`), and the last pair's position when
   * more follow (else null).
   */
  mappingsPage(topicId: string, after: ResponsePosition | null, limit: number): Promise<MappingsPageJson>;
  /**
   * The largest seq of the topic's responses (0 when it has none): every write that changes what a
   * page of them shows stamps one (a new, edited, voted, moderated, deleted response, its author's new name).
   */
  topicVersion(topicId: string): Promise<number>;
  /** A page of `roots`: at most `limit` after `after` (null: from the first). */
  rootsPage(topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number): Promise<ResponseRow[]>;
  /** A page of `replies`: at most `limit` after `after` (null: from the first). */
  repliesPage(parentId: string, viewer: string | null, after: ResponsePosition | null, limit: number): Promise<ResponseRow[]>;
  /**
   * rootsPage as the JSON array the API answers, byte for byte JSON.stringify of toResponse with the
   * citations and earlier texts, where the database makes that text itself (SQLite); null where it
   * does not (PostgreSQL: the domain serialises the rows).
   */
  rootsPageJson(topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number): Promise<ResponsePageText | null>;
  /** The same for repliesPage. */
  repliesPageJson(parentId: string, viewer: string | null, after: ResponsePosition | null, limit: number): Promise<ResponsePageText | null>;
  /** Live responses of a topic whose content matches an FTS query, best match first. */
  search(topicId: string, match: string, limit: number, viewer: string | null): Promise<ResponseRow[]>;
  /** The response and all its live descendants. */
  subtree(id: string): Promise<{ id: string; creator_uid: string; type: ResponseType }[]>;
  liveIdsOfTopic(topicId: string): Promise<string[]>;
  /** Tombstones the response: its text, citations and earlier versions go. */
  softDelete(id: string, seq: number): Promise<void>;
  /** Stamps `seq` on every response of the creator (e.g. after they renamed); returns the topics they are in. */
  restampCreator(uid: string, seq: number): Promise<string[]>;
  update(row: ResponseUpdate): Promise<void>;
  /** Keeps a text an edit replaced as the response's next version (1, 2, …), saved at `createdAt`. */
  keepVersion(responseId: string, content: string, createdAt: string): Promise<void>;
  /**
   * The earlier versions of many responses in one query, each response's first and last
   * VERSIONS_SHOWN (publicVersions), oldest first (absent: none). Moderation is the caller's to apply (toResponse, responseDoc).
   */
  versionsOf(responseIds: readonly string[]): Promise<Map<string, ResponseVersion[]>>;
  /** Recounts score, comment count, upvotes by side and Δ count, and stamps `seq` (repairs and tests). */
  refreshAggregates(id: string, seq: number): Promise<void>;
  /** Adds to the maintained score, direct-reply count and upvotes by side, and stamps `seq`: O(1). */
  addToCounts(id: string, delta: ResponseCountsDelta, seq: number): Promise<void>;
  /** Recounts the Δ credits the response received; when the count changed, stamps a new seq and returns true. */
  refreshDeltaCount(id: string, seq: () => Promise<number>): Promise<boolean>;
  /** A topic's live responses with their upvotes by side and Δ count, oldest first (common ground). */
  stanceTallies(topicId: string): Promise<StanceTally[]>;
  /** How many live responses of each type the topic has (types without any are absent). */
  countByType(topicId: string): Promise<{ type: ResponseType; n: number }[]>;
  /** A topic's responses (tombstones included) changed after the checkpoint. */
  changesSince(topicId: string, checkpoint: Checkpoint, limit: number, viewer: string | null): Promise<ResponseRow[]>;
  /** changesSince as a pull's documents (responseDoc's JSON, byte for byte), where the database makes that text (SQLite); else null. */
  changesSinceJson(topicId: string, checkpoint: Checkpoint, limit: number): Promise<JsonChanges | null>;
  /** The content of the user's live responses created at or after `sinceIso`, at most `limit`, newest first (spam check). */
  recentContents(uid: string, sinceIso: string, limit: number): Promise<string[]>;
}

export interface SourcesRepo {
  /** Finds the catalogue row for a URL or adds one; an existing row only gains missing fields. */
  ensure(input: { url: string; name?: string | null; description?: string | null }, newId: () => string, now: string): Promise<Source>;
  /**
   * Replaces the response's citations with these, in this order, each keeping the name and
   * description its author gave (a bare source id takes the catalogue's); the catalogue's
   * suggestion (most-cited live name) is recomputed, never written onto a citation.
   */
  setForResponse(
    responseId: string,
    citations: Array<string | { sourceId: string; name?: string | null; description?: string | null }>,
  ): Promise<void>;
  /** The response's citations: the catalogue row's id and URL, the author's own name and description. */
  forResponse(responseId: string): Promise<Source[]>;
  /** The citations of many responses in one query: response id → its sources in order (absent: none). */
  forResponses(responseIds: readonly string[]): Promise<Map<string, Source[]>>;
  /** The catalogue by name (or URL when unnamed), case-insensitively. */
  all(limit: number): Promise<Source[]>;
  /** Sources whose name, URL or description match an FTS query, best match first. */
  search(ftsQuery: string, limit: number): Promise<Source[]>;
  /** `search` among the sources a live, unmoderated response cites (what the catalogue shows). */
  searchCited(ftsQuery: string, limit: number): Promise<Source[]>;
  /** A page of the catalogue, sorted like `all`, filtered by a substring of name, URL or description; with citations on demand. */
  page(input: { filter: string | null; limit: number; offset: number; citations: boolean }): Promise<{
    total: number;
    items: Array<Source | SourceListing>;
  }>;
  /** The live responses citing a source, newest first; null when there is no such source. */
  citations(sourceId: string, limit: number, offset: number): Promise<{ total: number; items: SourceCitation[] } | null>;
}

export interface VoteSet {
  voter_uid: string;
  target_type: TargetType;
  target_id: string;
  target_creator_uid: string;
  topic_id: string;
  /** The voter's stance on the topic now (null: none); a taken-back vote keeps the stance it was cast with. */
  stance?: Stance | null;
  now: string;
  /** 1 agree (the default: the upvote), -1 disagree, 0 pass; a taken-back vote keeps the value it had. */
  value?: VoteValue;
  /** true: the vote is taken back (kept as a row with deleted = 1). */
  deleted: boolean;
  seq: number;
}

/** A live vote taken back because its target is deleted: whose vote lists and (for an agree) whose points change. */
export interface RemovedVote {
  voter_uid: string;
  target_creator_uid: string;
  value: VoteValue;
}

export interface VotesRepo {
  get(voter: string, type: TargetType, targetId: string): Promise<VoteRow | undefined>;
  set(row: VoteSet): Promise<void>;
  /** Takes back every live vote on the target (its item is being deleted); returns them. */
  removeAllOn(type: TargetType, targetId: string, seq: () => Promise<number>): Promise<RemovedVote[]>;
  /** The voter's votes changed after the checkpoint; a vote's id is `<target_type>_<target_id>`. */
  changesSince(voter: string, checkpoint: Checkpoint, limit: number): Promise<VoteRow[]>;
}

export interface UsersRepo {
  get(uid: string): Promise<UserRow | undefined>;
  /** Records the caller as the verified token describes them; returns true if anything changed. */
  remember(
    user: { uid: string; name: string | null; email: string | null; emailVerified?: boolean; role?: Role },
    now: string,
    seq: () => Promise<number>,
  ): Promise<boolean>;
  /**
   * Recounts the points (live upvotes by others on the user's items); returns whether they changed.
   * With `seq`, a change stamps the user's row so the profile replicates the new points.
   */
  refreshPoints(uid: string, seq?: () => Promise<number>): Promise<boolean>;
  /** Adds to the maintained points and stamps a new seq; returns whether anything changed (delta ≠ 0). */
  addPoints(uid: string, delta: number, seq: () => Promise<number>): Promise<boolean>;
  /**
   * Recounts the persuasion points (Δ credits by others on the user's live responses) and moves
   * `points` by the difference; when they changed, stamps a new seq and returns true.
   */
  refreshPersuasionPoints(uid: string, seq: () => Promise<number>): Promise<boolean>;
  /** 1 + the number of users with more points. */
  rankFor(points: number): Promise<number>;
  /** Users with points, most first (ties by uid), with the part earned by Δ credits. */
  leaderboard(limit: number): Promise<LeaderboardRow[]>;
  /** The user's live topics, newest first (the user page). */
  topicsBy(uid: string, limit: number): Promise<UserTopic[]>;
  /** The user's live responses in live topics, newest first, with the topic's title (content untruncated). */
  responsesBy(uid: string, limit: number): Promise<UserResponse[]>;
  /** Turns the weekly summary on or off; turning it on from off notes `now` (weeklySummarySince). */
  setWeeklySummary(uid: string, value: boolean, seq: number, now: string): Promise<void>;
  /** When the user last turned the weekly summary on again (null: never, or no such user). */
  weeklySummarySince(uid: string): Promise<string | null>;
  /**
   * The last committed change number of the whole database (every write that a user page shows
   * stamps one): a user page read at this version stays right until it grows (domain/users.ts).
   */
  changeNumber(): Promise<number>;
  /** Stores the user's push settings (JSON of shared/push.ts PushSettings). */
  setPushSettings(uid: string, json: string, seq: number): Promise<void>;
  /** The user's row when it changed after `seq`. */
  changedSince(uid: string, seq: number): Promise<UserRow | undefined>;
  /**
   * The users whose display name is one of `names` (case-insensitively) and who take
   * part in the topic (its creator, or the author of a live response in it): who an @mention names.
   */
  participantsNamed(topicId: string, names: readonly string[]): Promise<{ uid: string; name: string }[]>;
}

export interface NotificationInsert {
  id: string;
  recipient_uid: string;
  type: NotificationRow['type'];
  actor_uid: string;
  target_summary: string;
  target_id: string;
  response_id: string;
  created_at: string;
  seq: number;
}

export interface NotificationsRepo {
  insert(row: NotificationInsert): Promise<void>;
  get(id: string): Promise<NotificationRow | undefined>;
  /** The user's live notifications, newest first (NOTIFICATION_ORDER). */
  forUser(uid: string, limit: number, offset: number): Promise<NotificationRow[]>;
  markRead(id: string, seq: number): Promise<void>;
  /** How many live notifications `actorUid` gave `recipientUid` since `sinceIso` (the flood cap). */
  countFrom(actorUid: string, recipientUid: string, sinceIso: string): Promise<number>;
  /** Tombstones the topic's notifications and returns whose lists changed. */
  removeForTopic(topicId: string, seq: () => Promise<number>): Promise<Set<string>>;
  /** Marks the notifications about a deleted reply (kept, saying so) and returns whose lists changed. */
  markResponseDeleted(responseId: string, seq: () => Promise<number>): Promise<Set<string>>;
  changesSince(uid: string, checkpoint: Checkpoint, limit: number): Promise<NotificationRow[]>;
  /** Who has a live notification about the response, and of which type (one notification per person per response). */
  aboutResponse(responseId: string): Promise<{ recipient_uid: string; type: NotificationRow['type'] }[]>;
  /** The live notifications whose excerpt is a copy of this topic's title or this response's content. */
  copying(type: 'topic' | 'response', id: string): Promise<{ id: string; recipient_uid: string }[]>;
  /** Writes a notification's excerpt anew, with a new seq so devices pull it. */
  setSummary(id: string, summary: string, seq: number): Promise<void>;
}

export interface StancesRepo {
  /** The user's stance on the topic, or undefined. */
  get(uid: string, topicId: string): Promise<StanceRow | undefined>;
  /** Inserts or replaces the user's stance on the topic; an existing row keeps its first_stance. */
  save(row: StanceRow): Promise<void>;
  /** The user's stances changed after the checkpoint (its id is the topic id), by (seq, topic_id). */
  changesSince(uid: string, checkpoint: Checkpoint, limit: number): Promise<StanceRow[]>;
  /** The Δ credits the user gave for one change of their stance on the topic (change_no = history length − 1). */
  creditsFor(uid: string, topicId: string, changeNo: number): Promise<CreditRow[]>;
  /** Replaces the Δ credits of one change; the credits of other changes stay. */
  setCredits(uid: string, topicId: string, changeNo: number, credits: readonly CreditRow[], now: string): Promise<void>;
  /** The authors whose persuasion points a response's Δ credits count towards. */
  authorsCreditedOn(responseId: string): Promise<string[]>;
}

export interface OpinionGroupsRepo {
  /** Live votes (agree, disagree, pass) on the topic's live, unmoderated responses by others than their author (never served). */
  votes(topicId: string): Promise<Array<Required<ResponseVote>>>;
  /** Ids of the topic's responses a moderator took out (read as a pass from everyone, as Polis does). */
  removed(topicId: string): Promise<string[]>;
  /** Topics whose response votes changed at or after `sinceIso` (a scan: once per start of the grouping job). */
  votedSince(sinceIso: string): Promise<string[]>;
  /**
   * Stores the topic's summary (JSON) when it differs from the stored one, stamping a new seq (the
   * topic replicates with it); false when it was the same, or the topic is gone.
   */
  save(topicId: string, summary: string, seq: () => Promise<number>): Promise<boolean>;
}

export interface BlockSet {
  blocker_uid: string;
  blocked_uid: string;
  /** false: unblocked (the row stays with blocked = 0, so the change replicates). */
  blocked: boolean;
  now: string;
  seq: number;
}

/** Who blocked whom: private to the blocker; never deleted, unblocking sets blocked = 0. */
export interface BlocksRepo {
  /** The blocker's row for that user (blocked or not), with the user's current name, or undefined. */
  get(blocker: string, blocked: string): Promise<BlockRow | undefined>;
  set(row: BlockSet): Promise<void>;
  /** Whether `recipient` blocks `actor` now (their replies do not notify them). */
  isBlocked(recipient: string, actor: string): Promise<boolean>;
  /** The users the blocker blocks now, most recently blocked first. */
  list(blocker: string): Promise<BlockRow[]>;
  /** The blocker's rows changed after the checkpoint (a block's id is the blocked uid), by (seq, blocked_uid). */
  changesSince(blocker: string, checkpoint: Checkpoint, limit: number): Promise<BlockRow[]>;
  /** Stamps `seq` on every row naming the user as blocked (they renamed); returns the blockers. */
  restampBlocked(blocked: string, seq: number): Promise<string[]>;
}

export interface FollowersNotice {
  actor_uid: string;
  /** The topic's author: notified of a root response as such, never as a follower. */
  creator_uid: string;
  topic_id: string;
  response_id: string;
  summary: string;
  now: string;
  seq: number;
  /** Followed-topic notifications one follower may get per topic since `since`. */
  since: string;
  per_hour: number;
}

/** Who follows which topic: private to each user; unfollowing keeps the row (following = 0). */
export interface FollowsRepo {
  get(uid: string, topicId: string): Promise<FollowRow | undefined>;
  set(uid: string, topicId: string, following: boolean, now: string, seq: number): Promise<void>;
  /** Follows the topic unless the user already has a row for it; whether one was made. */
  followIfNew(uid: string, topicId: string, now: string, seq: number): Promise<boolean>;
  /** The live topics the user follows, most recently followed first. */
  list(uid: string): Promise<FollowRow[]>;
  changesSince(uid: string, checkpoint: Checkpoint, limit: number): Promise<FollowRow[]>;
  /**
   * Notifies the topic's followers of a new root response (FOLLOWERS_TO_NOTIFY), each notification
   * with an id from `newId` in the followers' uid order (so both engines make the same); returns them.
   */
  notifyFollowers(notice: FollowersNotice, newId: () => string): Promise<string[]>;
  /** Queues the pushes of the response's followed-topic notifications; returns how many were queued. */
  enqueuePushes(responseId: string, due: string): Promise<number>;
}

/** A device that turned push on: its push service endpoint and the keys its payloads are encrypted to. */
export interface PushSubscriptionRow {
  endpoint: string;
  uid: string;
  p256dh: string;
  auth: string;
  created_at: string;
  last_success_at: string | null;
}

/** One notification still to push to one device. */
export interface PushQueueRow {
  notification_id: string;
  endpoint: string;
  uid: string;
  attempts: number;
  due_at: string;
  claimed_until: string | null;
}

export interface PushRepo {
  /** Saves the device's subscription for its user; a device that changes hands drops the old user's queued pushes. */
  saveSubscription(row: Omit<PushSubscriptionRow, 'last_success_at'>): Promise<void>;
  getSubscription(endpoint: string): Promise<PushSubscriptionRow | undefined>;
  subscriptionsOf(uid: string): Promise<PushSubscriptionRow[]>;
  /** Removes the device and its queued pushes; whether it was there. */
  removeSubscription(endpoint: string): Promise<boolean>;
  /** Queues a notification for every device of its recipient; how many rows were queued. */
  enqueue(notificationId: string, uid: string, dueAt: string): Promise<number>;
  /** Claims up to `limit` due rows that nobody holds, until `until`. */
  claimDue(now: string, until: string, limit: number): Promise<PushQueueRow[]>;
  /** The push service took it: the row goes and the device's last success is stamped. */
  delivered(row: PushQueueRow, now: string): Promise<void>;
  /** Drops a queued push (sent, given up, or its notification is gone). */
  drop(row: PushQueueRow): Promise<void>;
  /** Tries the row again at `dueAt`, after `attempts` attempts. */
  retry(row: PushQueueRow, attempts: number, dueAt: string): Promise<void>;
  /** When a row next needs the sender (due, or its claim runs out), if any is queued. */
  nextDue(): Promise<string | undefined>;
  depth(): Promise<number>;
}

export interface ReportsRepo {
  get(reporterUid: string, targetType: ReportTargetType, targetId: string): Promise<ReportRow | undefined>;
  /** Inserts the report or replaces the reporter's report of the same target. */
  save(row: ReportRow): Promise<void>;
  /** The reporter's reports changed after the checkpoint, by (seq, id); a report's id is `{target_type}_{target_id}`. */
  changesSince(reporterUid: string, checkpoint: Checkpoint, limit: number): Promise<ReportRow[]>;
  /**
   * Targets with reports of this status ('open': any open report; 'handled': every report handled),
   * hidden ones first, then most distinct reporters, then the earliest first report.
   */
  queue(status: ReportStatus, limit: number, offset: number): Promise<QueueTargetRow[]>;
  /** How many targets `queue` lists in all for this status. */
  queueTotal(status: ReportStatus): Promise<number>;
  /** A target's reports of this status, oldest first, with the reporters' names. */
  forTarget(targetType: ReportTargetType, targetId: string, status: ReportStatus): Promise<QueueReportRow[]>;
  /** Marks the target's open reports handled, each with a new seq (the reporters' devices learn it); returns the reporters. */
  markHandled(targetType: ReportTargetType, targetId: string, seq: () => Promise<number>): Promise<string[]>;
  /** Distinct reporters of the target's open reports whose accounts were first seen by `createdBefore` and hold at least `minPoints`. */
  reportersWithStanding(targetType: ReportTargetType, targetId: string, createdBefore: string, minPoints: number): Promise<number>;
  /** The target's open reporters as auto-hide weighs them (AUTO_HIDE_REPORTERS in sql.ts). */
  autoHideReporters(targetType: 'topic' | 'response', targetId: string, rules: AutoHideRules): Promise<AutoHideReporterRow[]>;
}

/** What auto-hide counts a reporter's standing and recent hides against. */
export interface AutoHideRules {
  /** A voucher's account was first seen by then (STANDING_MIN_AGE_DAYS ago). */
  createdBefore: string;
  /** A voucher holds at least these points (STANDING_MIN_POINTS). */
  minPoints: number;
  /** Points a counted Δ credit is worth (PERSUASION_POINTS_PER_DELTA). */
  perDelta: number;
  /** Automatic hides logged after this time count toward the reporter's daily limit. */
  since: string;
}

export interface AutoHideReporterRow {
  uid: string;
  /** When the server first saw the reporter's account. */
  created_at: string;
  /** Points given them by accounts with standing outside the target's open reporters. */
  vouched_points: number;
  /** Automatic hides since `since` that their report came before. */
  recent_hides: number;
}

export interface ModerationRepo {
  /** Keeps an item's own text, quote and sources (replaces an earlier copy). */
  saveOriginal(row: ModeratedOriginalRow): Promise<void>;
  original(targetType: 'topic' | 'response', targetId: string): Promise<ModeratedOriginalRow | undefined>;
  dropOriginal(targetType: 'topic' | 'response', targetId: string): Promise<void>;
  /** Writes a topic's title and moderation state with a new seq; the title search follows. */
  setTopicModeration(id: string, title: string, moderation: ModerationState | null, reason: string | null, seq: number): Promise<void>;
  /** Writes a response's content, quote and moderation state with a new seq; the content search follows. */
  setResponseModeration(
    id: string,
    content: string,
    quotedResponseId: string | null,
    moderation: ModerationState | null,
    reason: string | null,
    seq: number,
  ): Promise<void>;
  setTopicLocked(id: string, locked: boolean, seq: number): Promise<void>;
  /** Sets (until and reason) or clears (nulls) a user's suspension, with a new seq on the user's row (the profile syncs). */
  setSuspension(uid: string, until: string | null, reason: string | null, seq: number): Promise<void>;
  /** Sets a user's role with a new seq on the user's row. */
  setRole(uid: string, role: Role, seq: number): Promise<void>;
  log(row: ModerationLogRow): Promise<void>;
  /** The log, newest first, with the moderators' names. */
  logPage(limit: number, offset: number): Promise<ModerationLogListRow[]>;
  logTotal(): Promise<number>;
}

export interface MailRepo {
  /** Users with the weekly summary on and an e-mail address, by uid. */
  recipients(): Promise<MailRecipient[]>;
  /** Others' live replies to the user's topics (root level) and responses, created in [start, end), newest first. */
  repliesTo(uid: string, start: string, end: string, limit: number): Promise<{ total: number; items: MailReply[] }>;
  /** Live upvotes by others on the user's items, cast in [start, end). */
  pointsEarned(uid: string, start: string, end: string): Promise<number>;
  /** Live topics created in [start, end), best score first, then most responses. */
  topTopics(start: string, end: string, limit: number): Promise<MailTopTopic[]>;
  getRun(id: string): Promise<MailRun | undefined>;
  /** Creates the run with its points snapshot; false when a run with this id exists already. */
  createRun(
    run: Pick<MailRun, 'id' | 'kind' | 'period_start' | 'period_end' | 'created_at'>,
    snapshot: Array<{ uid: string } & PointsSnapshot>,
  ): Promise<boolean>;
  /** Runs not finished (a crash or a stop in the middle), oldest first. */
  unfinishedRuns(): Promise<MailRun[]>;
  /** The latest period end of any run, or undefined before the first. */
  lastPeriodEnd(): Promise<string | undefined>;
  finishRun(id: string, at: string, counts: { sent: number; failed: number; skipped: number }): Promise<void>;
  sendsOf(runId: string): Promise<MailSend[]>;
  recordSend(row: MailSend): Promise<void>;
  snapshot(runId: string, uid: string): Promise<PointsSnapshot | undefined>;
  /** The user's snapshot of the latest run whose period ended before `end`. */
  previousSnapshot(uid: string, end: string): Promise<PointsSnapshot | undefined>;
  /** Others' "against" replies to the user's responses created in [since, end) that the user has not answered, newest first. */
  rebuttalsAwaiting(uid: string, since: string, end: string, limit: number): Promise<{ total: number; items: MailRebuttal[] }>;
  /** The user's responses citing no source that got an "against" reply in [start, end), latest first. */
  challengedUnsourced(uid: string, start: string, end: string, limit: number): Promise<MailChallenged[]>;
  /** The responses of the user's side on each live topic where they stand agree or disagree, with the topic's sides. */
  sideTallies(uid: string): Promise<MailSideTally[]>;
  /** Records, with a run, how many of each recipient's side's responses were common ground per topic. */
  saveCommonGround(runId: string, rows: Array<{ uid: string } & CommonGroundCount>): Promise<void>;
  /** The counts recorded with this run for the user (empty: none recorded). */
  commonGroundOf(runId: string, uid: string): Promise<CommonGroundCount[]>;
  /** The user's counts of the latest run, ended before `end`, that recorded any for them. */
  previousCommonGround(uid: string, end: string): Promise<CommonGroundCount[]>;
  getState(key: string): Promise<string | undefined>;
  /** Sets the value unless the key exists; returns the stored value. */
  initState(key: string, value: string): Promise<string>;
  /**
   * Compare-and-set: when the key holds `expected` (null: the key is absent), it becomes `value`
   * (null: removed) and true is answered; otherwise nothing changes and false (the run lease, mail/lease.ts).
   */
  swapState(key: string, expected: string | null, value: string | null): Promise<boolean>;
}

/**
 * Every repository of the Store by its member name: the one place a repository is declared. Each
 * engine builds every one of them (store/repositories.ts).
 */
/** A deleted account's rows (domain/account.ts): what it held, then gone in one go. */
export interface AccountsRepo {
  liveVotesBy(uid: string): Promise<VoteRow[]>;
  stanceTopicsBy(uid: string): Promise<string[]>;
  creditsGivenBy(uid: string): Promise<Array<{ response_id: string; topic_id: string; author_uid: string }>>;
  liveTopicsBy(uid: string): Promise<string[]>;
  liveResponsesBy(uid: string): Promise<Array<{ id: string; topic_id: string }>>;
  /** Erases the moderators' copies of the user's removed texts and the earlier versions of their responses. */
  dropOriginalsOf(uid: string): Promise<void>;
  /** Stamps a new seq on the notifications the user caused; returns their recipients. */
  restampNotificationsBy(uid: string, seq: number): Promise<string[]>;
  /** Deletes the user's own rows (store/sql.ts DELETE_OWN_ROWS). */
  deleteOwnRows(uid: string): Promise<void>;
  /** Makes the users row a stub named `label`. */
  stub(uid: string, label: string, now: string, seq: number): Promise<void>;
}

export interface Repositories {
  /** Deleting an account: the rows it leaves behind and the stub it becomes. */
  accounts: AccountsRepo;
  topics: TopicsRepo;
  responses: ResponsesRepo;
  sources: SourcesRepo;
  votes: VotesRepo;
  users: UsersRepo;
  notifications: NotificationsRepo;
  /** Where users stand on topics and the Δ credits they gave. Private to each owner. */
  stances: StancesRepo;
  /** Whom each user blocked. Private to each blocker. */
  blocks: BlocksRepo;
  /** The weekly summary e-mail's recipients, content and run records (sync-server/src/mail/). */
  mail: MailRepo;
  /** Users' reports of topics, responses and users: each reporter's own, and the moderators' queue. */
  reports: ReportsRepo;
  /** Moderators' writes: removal and restore, locks, suspensions, roles, the log. */
  moderation: ModerationRepo;
  /** Web Push: each user's devices and the pushes still to send to them. */
  push: PushRepo;
  /** Who follows which topic. Private to each user. */
  follows: FollowsRepo;
  /** Opinion groups: the grouping job's input and its stored summary. */
  groups: OpinionGroupsRepo;
}
