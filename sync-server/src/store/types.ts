// The storage boundary (DESIGN.md §8), spelled out: every operation the domain,
// the routes, replication, main.ts and the demo seed use, and nothing else. No
// handle to the engine leaks out, so another engine can stand behind the same
// methods; tests/store-contract/ checks an implementation against it.
//
// Conventions every implementation keeps:
// - `seq` is a number from `nextSeq()`, strictly increasing, stamped on every write
//   that replication must see; `changesSince` pages are ordered by (seq, id) and
//   start strictly after the checkpoint.
// - Deletes are tombstones (`deleted = 1` with a fresh seq), so they replicate.
// - `viewer` (a uid or null) only fills `user_has_upvoted`.
// - Writes happen inside `transaction`; a throw rolls every write of it back.
import type {
  ModerationState,
  ReportStatus,
  ReportTargetType,
  ResponseType,
  Role,
  Sort,
  Stance,
  TargetType,
} from '../../../shared/constants.js';
import type { ResponseMapping, Source, SourceCitation, SourceListing, UserResponse, UserTopic } from '../../../shared/types.js';
import type {
  BlockRow,
  FollowRow,
  CommonGroundCount,
  CreditRow,
  LeaderboardRow,
  MailChallenged,
  MailRebuttal,
  MailRecipient,
  MailReply,
  MailRun,
  MailSend,
  MailSideTally,
  MailTopTopic,
  ModeratedOriginalRow,
  ModerationLogListRow,
  ModerationLogRow,
  NotificationRow,
  QueueReportRow,
  QueueTargetRow,
  ReportRow,
  PointsSnapshot,
  ResponseCountsDelta,
  ResponsePosition,
  ResponseRow,
  StanceRow,
  StanceTally,
  TopicCountsDelta,
  TopicRow,
  UserRow,
  VoteRow,
} from './rows.js';

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
  /** Every live response of a topic with its parent, oldest first. */
  /** The topic's live (id, parent) pairs after a position, in RESPONSE_ORDER; every one without a limit. */
  mappings(topicId: string, after?: ResponsePosition | null, limit?: number): Promise<(ResponseMapping & { created_at: string })[]>;
  /**
   * The largest seq of the topic's responses (0 when it has none): every write that changes what a
   * page of them shows stamps one (a new, edited, voted, moderated, deleted response, its author's new name).
   */
  topicVersion(topicId: string): Promise<number>;
  /** A page of `roots`: at most `limit` after `after` (null: from the first). */
  rootsPage(topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number): Promise<ResponseRow[]>;
  /** A page of `replies`: at most `limit` after `after` (null: from the first). */
  repliesPage(parentId: string, viewer: string | null, after: ResponsePosition | null, limit: number): Promise<ResponseRow[]>;
  /** Live responses of a topic whose content matches an FTS query, best match first. */
  search(topicId: string, match: string, limit: number, viewer: string | null): Promise<ResponseRow[]>;
  /** The response and all its live descendants. */
  subtree(id: string): Promise<{ id: string; creator_uid: string; type: ResponseType }[]>;
  liveIdsOfTopic(topicId: string): Promise<string[]>;
  softDelete(id: string, seq: number): Promise<void>;
  /** Stamps `seq` on every response of the creator (e.g. after they renamed); returns the topics they are in. */
  restampCreator(uid: string, seq: number): Promise<string[]>;
  update(row: ResponseUpdate): Promise<void>;
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
  /** true: the vote is taken back (kept as a row with deleted = 1). */
  deleted: boolean;
  seq: number;
}

export interface VotesRepo {
  get(voter: string, type: TargetType, targetId: string): Promise<VoteRow | undefined>;
  set(row: VoteSet): Promise<void>;
  /** Takes back every live vote on the target (its item is being deleted); returns them. */
  removeAllOn(type: TargetType, targetId: string, seq: () => Promise<number>): Promise<{ voter_uid: string; target_creator_uid: string }[]>;
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
  setWeeklySummary(uid: string, value: boolean, seq: number): Promise<void>;
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
   * Issue 26 #4: the users whose display name is one of `names` (case-insensitively) and who take
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
  /** Live upvotes of the topic's live, unmoderated responses by others than their author (never served). */
  upvotes(topicId: string): Promise<Array<{ voter: string; response: string }>>;
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

/** Who blocked whom (issue 23): private to the blocker; never deleted, unblocking sets blocked = 0. */
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

/** Who follows which topic (issue 26 #3): private to each user; unfollowing keeps the row (following = 0). */
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

/** The versions of the kept pages without a promise (http/fast-reads.ts answers from them at once). */
export interface KeptVersions {
  /** topics.listVersion() when known without waiting for the connection; undefined when it must be awaited. */
  listVersionNow(): number | undefined;
  /** users.changeNumber() the same way. */
  changeNumberNow(): number | undefined;
  /** Another server process on the file wrote (its change feed message arrived): read the versions again before trusting them. */
  changedElsewhere(): void;
}

export interface Store {
  /** A fresh change number, greater than every one before; call only inside `transaction`. */
  nextSeq(): Promise<number>;
  /**
   * Runs `fn` as one transaction: all its writes or, when it throws, none (nested calls nest as
   * savepoints). Every store call made while `fn` runs (followed through its awaits) belongs to
   * the transaction; write transactions run one at a time, like SQLite's single writer, so a rule
   * read and then written inside one (one vote per user, a maintained counter) holds on any engine.
   * Keep network calls out of `fn`: the next writer waits for it.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on each item in order, each as a transaction of its own (a throw rolls that item's
   * writes back), committed together where the engine can: a sync push's rows. At the first item
   * that throws it stops: the items before it are committed, the ones after it never run, and the
   * error is thrown. Answers what `fn` answered, per item.
   * SQLite: each item is a top-level transaction, all queued at once so that they share one group
   * COMMIT (transactions.ts). Not one transaction with a savepoint per item: SQLite keeps an open
   * savepoint's undo pages in an in-memory list of 1 KiB chunks that each later statement walks
   * from its start, so the cost of a statement grew with every row before it (issue 28: a third of
   * a 50-row push's CPU). PostgreSQL: one transaction, each item a savepoint.
   */
  transactionEach<I, R>(items: readonly I[], fn: (item: I) => Promise<R>): Promise<R[]>;
  /**
   * Runs `fn` once the current transaction, the outermost, has committed (at once outside one;
   * never when it rolls back, nor when the savepoint around the call does). What others may see
   * of a write (the live stream's change feed) is told only then: a nested operation's own
   * transaction (a sync push's row) is not yet visible when it returns.
   */
  afterCommit(fn: () => void): void;
  /** Whether nothing was ever posted (no topic, live or deleted): main.ts seeds the demo then. */
  isEmpty(): Promise<boolean>;
  /**
   * SQLite only: the versions the kept pages hang on, known without reading the file
   * (store/sqlite/kept-versions.ts). Absent on PostgreSQL, where each is read per request.
   */
  versions?: KeptVersions;
  topics: TopicsRepo;
  responses: ResponsesRepo;
  sources: SourcesRepo;
  votes: VotesRepo;
  users: UsersRepo;
  notifications: NotificationsRepo;
  /** Where users stand on topics and the Δ credits they gave (issue 13). Private to each owner. */
  stances: StancesRepo;
  /** Whom each user blocked (issue 23). Private to each blocker. */
  blocks: BlocksRepo;
  /** The weekly summary e-mail's recipients, content and run records (sync-server/src/mail/). */
  mail: MailRepo;
  /** Users' reports of topics, responses and users (issue 23): each reporter's own, and the moderators' queue. */
  reports: ReportsRepo;
  /** Moderators' writes (issue 23): removal and restore, locks, suspensions, roles, the log. */
  moderation: ModerationRepo;
  /** Web Push (issue 26): each user's devices and the pushes still to send to them. */
  push: PushRepo;
  /** Who follows which topic (issue 26 #3). Private to each user. */
  follows: FollowsRepo;
  /**
   * PostgreSQL with READ_DATABASE_URL only (store/pg/replica.ts): marks each request so that its
   * reads may go to the read replica (app.ts says which requests may); without it, one database.
   */
  requests?: RequestReads;
  /** Resolves once the read replica has replayed every commit made before the call (at once without one, or while reads do not use it). */
  replicaCaughtUp?(): Promise<void>;
  /** How many seconds the read replica is behind the primary (0: caught up); null without one (for the metrics). */
  replicaLagSeconds?(): number | null;
  /** Opinion groups (issue 29 #2): the grouping job's input and its stored summary. */
  groups: OpinionGroupsRepo;
  close(): Promise<void>;
}

/** Which database a request reads (a store with a read replica: store/pg/replica.ts). */
export interface RequestReads {
  /** Runs a request (fn) in a scope of its own; its reads go to the primary until allowReplica(). */
  scope<T>(fn: () => Promise<T>): Promise<T>;
  /** The request's caller, once authenticated: their reads wait for the replica to replay their own writes. */
  setCaller(uid: string | null): void;
  /** From here the request's reads may go to the replica (a GET, a sync pull), until it writes. */
  allowReplica(): void;
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
  /** Others' "against" replies to the user's responses created in [since, end) that the user has not answered, newest first (issue 29 #4). */
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
 * The right to write the SQLite file, passed between the server processes of SERVER_PROCESSES by
 * their primary (cluster/write-token.ts; store/sqlite/transactions.ts holds it for a group commit).
 */
export interface WriteToken {
  /** Resolves once this process holds it. */
  acquire(): Promise<void>;
  /** Passes it on (to the next process waiting for it). */
  release(): void;
  /** `listener` runs when another process asks for it while this one holds it. */
  onWanted(listener: () => void): void;
}
