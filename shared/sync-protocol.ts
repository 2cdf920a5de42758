// The replication wire format between the app's RxDB store and /api/sync
// (docs/SYNC.md "The protocol"). Both sides import these types; the server owns every value
// in a document except the fields a user action may change (USER_FIELDS).
//
// SYNC_PROTOCOL_VERSION: bump when a document shape or an endpoint changes in a
// way an older client cannot read; the client sends it as `x-crux-sync` and the
// server refuses another version with 426 `sync-outdated` (the app asks for a reload).
import type {
  Category,
  ModerationState,
  ReportReason,
  ReportStatus,
  ReportTargetType,
  ResponseType,
  Role,
  Stance,
  TargetType,
  VoteValue,
} from './constants.js';
import type { z } from 'zod';
import type { Notification, ResponseVersion } from './types.js';
import type { responseTombstoneSchema, tombstoneSchema } from './schemas/answers.js';
import type { PushSettings } from './push.js';

// 3: a pull answer carries at most PULL_ANSWER_MAX documents, so a page shorter than the limit asked
// for is no longer the end (an older client would stop there).
export const SYNC_PROTOCOL_VERSION = 3;
export const SYNC_PROTOCOL_HEADER = 'x-crux-sync';

export const SYNC_COLLECTIONS = [
  'topics',
  'responses',
  'votes',
  'notifications',
  'profile',
  'stances',
  'reports',
  'blocks',
  'follows',
] as const;
export type SyncCollection = (typeof SYNC_COLLECTIONS)[number];

const PRIVATE = [
  'votes',
  'notifications',
  'profile',
  'stances',
  'reports',
  'blocks',
  'follows',
] as const satisfies readonly SyncCollection[];
/** Per-user collections: pulled and pushed with the caller's bearer token only. */
export const PRIVATE_COLLECTIONS: readonly SyncCollection[] = PRIVATE;
export type PrivateCollection = (typeof PRIVATE)[number];

/** Position in one change stream: documents come ordered by (seq, id). */
export interface SyncCheckpoint {
  id: string;
  seq: number;
}
export const START_CHECKPOINT: SyncCheckpoint = { id: '', seq: 0 };

/** Responses replicate per topic: one {id, seq} position per followed topic. */
export interface ResponsesCheckpoint {
  topics: Record<string, SyncCheckpoint>;
}

// ---- documents (what RxDB stores, minus local-only fields) ----

interface Replicated {
  /** The server's change number of this state; 0 for a state the server has not seen. */
  seq: number;
  /** Tombstone: the item was deleted on the server. */
  _deleted: boolean;
}

export interface TopicDoc extends Replicated {
  id: string;
  title: string;
  category: Category;
  creator_uid: string;
  username: string | null;
  created_at: string;
  score: number;
  responses_count: number;
  /** Participants whose current stance on the question is agree / disagree / unsure. */
  stance_agree: number;
  stance_disagree: number;
  stance_unsure: number;
  /** Participants whose current stance differs from their first one ("changed their mind here"). */
  minds_changed: number;
  /** A moderator locked it: it takes no new responses. */
  locked: boolean;
  /**
   * Removed by a moderator, or hidden pending review; null otherwise. While set, `title` is the text
   * everyone reads instead (removedByModerator / MSG.hiddenPendingReview): the author's title is kept
   * apart on the server and served to the author and moderators only.
   */
  moderation: ModerationState | null;
  /** The moderator's reason of a removal (null when hidden or not moderated). */
  moderation_reason: string | null;
  /**
   * Opinion groups: JSON text of OpinionGroupsSummary (shared/rules/opinion-groups.ts,
   * its `version` checked by the reader), recomputed by the server at most every few minutes; null
   * until first computed. Text, not an object, so the local schema stores it as it comes.
   */
  opinion_groups: string | null;
}

export interface SourceDoc {
  url: string;
  name: string | null;
  description: string | null;
}

export interface ResponseDoc extends Replicated {
  id: string;
  topic_id: string;
  parent_response_id: string | null;
  quoted_response_id: string | null;
  type: ResponseType;
  content: string;
  sources: SourceDoc[];
  creator_uid: string;
  username: string | null;
  created_at: string;
  /** Any change to the row, votes and counters included: not what a reader is told. */
  updated_at: string;
  /** When the author last changed content, quote or sources (null: never): the "edited" mark. */
  edited_at: string | null;
  /** Earlier texts, oldest first: the first and the last VERSIONS_SHOWN (shared/rules/edit-history.ts); [] while moderated. Server-owned: a push's is ignored. */
  versions: ResponseVersion[];
  score: number;
  comment_count: number;
  /** "This changed my view" credits received. */
  delta_count: number;
  /** Live upvotes by voters whose stance was agree / disagree when they voted (common ground). */
  upvotes_agree: number;
  upvotes_disagree: number;
  /** Live disagree votes by the voter's stance when they voted: common ground and the strongest case count them against. */
  downvotes_agree: number;
  downvotes_disagree: number;
  /** As TopicDoc's: while set, `content` is the replacement text, `sources` is [] and `quoted_response_id` null. */
  moderation: ModerationState | null;
  moderation_reason: string | null;
}

/** The caller's vote on one target; `id` is `${target_type}_${target_id}`. Never an RxDB tombstone: upvoted=false. */
export interface VoteDoc extends Replicated {
  id: string;
  target_type: TargetType;
  target_id: string;
  topic_id: string;
  /** The vote is a live agree (the upvote): what clients before the disagree vote read and push. */
  upvoted: boolean;
  /**
   * 1 agree, -1 disagree, 0 pass; null: no vote (taken back). Always pulled; wins over `upvoted` on a
   * push, and absent from the push of a client that predates it.
   */
  value?: VoteValue | null;
  updated_at: string;
}

/** A notification as synced: SPEC's fields plus the reply it is about, so the app can open it. */
export interface NotificationDoc extends Replicated, Notification {
  response_id: string;
  /** The reply was deleted since: the app says so instead of leading nowhere. */
  response_deleted: boolean;
}

/** The caller's profile; `id` is the uid. The display name comes from the ID token, not from a push. */
export interface ProfileDoc extends Replicated {
  id: string;
  display_name: string | null;
  receive_weekly_summary: boolean;
  /** What the user wants pushed: per kind, and quiet hours. */
  push_settings: PushSettings;
  /** Every point, persuasion points included. */
  points: number;
  /** The part of `points` earned by Δ credits (PERSUASION_POINTS_PER_DELTA each). */
  persuasion_points: number;
  /** The role the server last read from the user's token ('member' until then). */
  role: Role;
  /** Suspended until this time (SUSPENDED_FOR_GOOD: for good), else null; the reason with it. */
  suspended_until: string | null;
  suspension_reason: string | null;
}

/** One recorded stance, with the server's time of recording. */
export interface StanceChange {
  stance: Stance;
  at: string;
}

/**
 * The caller's stance on one topic; `id` is the topic id. Private: only its owner
 * ever reads it (pull, push answers and the stream carry it to them alone); topics carry the counts.
 * Never an RxDB tombstone. A push sets `stance` and `credits`; the server keeps the rest.
 */
export interface StanceDoc extends Replicated {
  id: string;
  topic_id: string;
  stance: Stance;
  /**
   * The "before": the first stance recorded. Set by the device that records the first stance (a
   * stance set and changed offline before the first push keeps its true first one); fixed afterwards.
   */
  first_stance: Stance;
  /** Every stance recorded, oldest first (a change appends one). */
  history: StanceChange[];
  /**
   * Responses credited with Δ for the latest change of stance: at most MAX_DELTAS_PER_CHANGE, never
   * the user's own, in this topic; [] until the stance has changed. A new change starts a new list
   * (earlier changes' credits stay counted).
   */
  credits: string[];
  updated_at: string;
}

/**
 * The caller's report of one item; `id` is `${target_type}_${target_id}` (reportDocId).
 * One per reporter and target: reporting again updates it (and reopens it once handled). Private:
 * only the reporter reads it; moderators read reports through /api/moderation. Never a tombstone.
 * A push sets `reason`, `note` and `status` ('open' to report); the server keeps the rest.
 */
export interface ReportDoc extends Replicated {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  note: string | null;
  /** 'handled' once a moderator acted on the target or dismissed its reports. */
  status: ReportStatus;
  created_at: string;
  updated_at: string;
}

/** The id of a user's report document of a target. */
export const reportDocId = (targetType: ReportTargetType, targetId: string) => `${targetType}_${targetId}`;

/**
 * A user the caller blocked; `id` is the blocked uid. Private and synced; unblocking
 * sets `blocked: false` (never a tombstone), as a taken-back vote. A push sets `blocked`.
 */
export interface BlockDoc extends Replicated {
  id: string;
  blocked_uid: string;
  /** The blocked user's display name, as the server knows it (null: none). */
  display_name: string | null;
  blocked: boolean;
  updated_at: string;
}

/**
 * A topic the caller follows; `id` is the topic id. Private and synced; unfollowing sets
 * `following: false` (never a tombstone, so auto-follow leaves it alone). A push sets `following`.
 */
export interface FollowDoc extends Replicated {
  id: string;
  topic_id: string;
  /** The topic's title as the server knows it (null: the topic is gone). */
  title: string | null;
  following: boolean;
  updated_at: string;
}

/**
 * A deleted topic as the server sends it (pull, and a push's answer): only what a
 * device needs to remove it. The author's text is gone on the server too.
 */
export type TopicTombstone = z.infer<typeof tombstoneSchema>;

/** A deleted response as the server sends it: its id and the keys that place it in its topic. */
export type ResponseTombstone = z.infer<typeof responseTombstoneSchema>;

/** A deleted notification as the server sends it: no reply summary, no actor's name. */
export type NotificationTombstone = z.infer<typeof tombstoneSchema>;

/** A live document of each collection, every field present. */
export interface FullSyncDocs {
  topics: TopicDoc;
  responses: ResponseDoc;
  votes: VoteDoc;
  notifications: NotificationDoc;
  profile: ProfileDoc;
  stances: StanceDoc;
  reports: ReportDoc;
  blocks: BlockDoc;
  follows: FollowDoc;
}

/** What travels for each collection: topics, responses and notifications arrive as slim tombstones once deleted. */
export interface SyncDocs {
  topics: TopicDoc | TopicTombstone;
  responses: ResponseDoc | ResponseTombstone;
  votes: VoteDoc;
  notifications: NotificationDoc | NotificationTombstone;
  profile: ProfileDoc;
  stances: StanceDoc;
  reports: ReportDoc;
  blocks: BlockDoc;
  follows: FollowDoc;
}
export type AnySyncDoc = SyncDocs[SyncCollection];

// The vote id rule lives in shared/rules/vote-id.ts.
export { voteDocId } from './rules/vote-id.js';

/**
 * Fields a user action may change, per collection. A push is compared with the
 * server's state on these only: everything else is derived by the server.
 */
export const USER_FIELDS = {
  topics: ['title', 'category', '_deleted'],
  responses: ['content', 'quoted_response_id', 'sources', '_deleted'],
  // A vote's `upvoted` follows from its `value` (sync-fields.ts reads an old client's `upvoted` as the value).
  votes: ['value'],
  notifications: ['is_read'],
  profile: ['receive_weekly_summary', 'push_settings'],
  stances: ['stance', 'first_stance', 'credits'],
  reports: ['reason', 'note', 'status'],
  blocks: ['blocked'],
  follows: ['following'],
} as const satisfies { [C in SyncCollection]: readonly (keyof FullSyncDocs[C])[] };

// ---- pull ----
// GET  /api/sync/{collection}/pull?id=&seq=&limit=[&topic_id=]   → PullResponse
// POST /api/sync/responses/pull  {checkpoint: ResponsesCheckpoint, limit} → PullResponse (several topics at once)

export const MAX_PULL_LIMIT = 1000;
/**
 * The most documents one pull answer carries, whatever `limit` asks: an answer this long may have
 * more after it (ask again from its checkpoint); a shorter one is the end. Under 50 pulls at once a
 * page of 1,000 (11–19 ms of the server's CPU) kept each waiting 0.6–0.9 s for the others; a page of
 * 200 costs about a fifth of that (docs/BENCHMARKS.md).
 */
export const PULL_ANSWER_MAX = 200;

// A device keeps its working set of topics, never the whole site (docs/SYNC.md "What a device keeps"):
// GET  /api/sync/topics/page?sort=&category=&search=&limit=&offset=   → TopicsAnswer (a page of a list, the list's order)
// POST /api/sync/topics/pull  {topics: {<id>: <seq the device has, 0 for none>}} → TopicsAnswer (the newer ones)

/** Topics asked by id in one pull. */
export const MAX_TOPIC_IDS = 200;

export interface TopicsByIdRequest {
  topics: Record<string, number>;
}

export interface TopicsAnswer {
  documents: (TopicDoc | TopicTombstone)[];
}

export interface PullResponse<D = AnySyncDoc, C = SyncCheckpoint> {
  documents: D[];
  checkpoint: C;
}

// ---- push ----
// POST /api/sync/{collection}/push  PushRow[] → PushResponse

export interface PushRow<D = AnySyncDoc> {
  assumedMasterState?: D | null;
  newDocumentState: D;
}

export const MAX_PUSH_ROWS = 200;

/** A row the server refused like the REST call would (400/401/403/404/409); `master` is its state now, if any. */
export interface RejectedRow<D = AnySyncDoc> {
  id: string;
  status: number;
  error: string;
  code?: string;
  master: D | null;
}

export interface PushResponse<D = AnySyncDoc> {
  /**
   * The server's state of every row it did not take as sent: real conflicts,
   * and rows that landed with server-derived fields (seq, counts, username,
   * times), so the client holds the server's truth at once.
   */
  conflicts: D[];
  rejected: RejectedRow<D>[];
}

// ---- live stream ----
// GET /api/sync/stream[?topics=id1,id2]  (bearer optional) → text/event-stream
// Each event's data is one StreamEvent as JSON; comment lines (": ping") are heartbeats.

export const STREAM_HEARTBEAT_MS = 15_000;
export const MAX_STREAM_TOPICS = 200;

export type StreamEvent =
  /** Pull again from the checkpoint: `'*'` at every (re)connection, else one collection (and topic). */
  { type: 'RESYNC'; collection: SyncCollection | '*'; topic_id?: string };
