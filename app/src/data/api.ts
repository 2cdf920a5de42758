// The data layer's public contract for the screens: what they read (observables
// over the local database) and what they do (write actions). Writes go to the
// local database and replication keeps it in step with the server; the few
// reads and calls only the server can answer go through the one client (http.ts).
import type { PushSettings } from '../../../shared/push.js';
import type { Observable } from 'rxjs';
import type { RxStorage } from 'rxdb';
import type {
  Category,
  ReportReason,
  ReportStatus,
  ReportTargetType,
  ResponseType,
  Role,
  Sort,
  Stance,
  TargetType,
  VoteValue,
} from '../../../shared/constants.js';
import type { ModerationActionInput } from '../../../shared/schemas/moderation.js';
import type { AccountContentChoice } from '../../../shared/schemas/account.js';
import type {
  ModeratedOriginal,
  ModeratedUser,
  ModerationLogEntry,
  ModerationLogPage,
  ModerationQueuePage,
  RoleChange,
} from '../../../shared/types.js';
import type {
  BlockedUser,
  FollowedTopic,
  Notification,
  Preferences,
  QuotedResponse,
  Response,
  Source,
  Topic,
} from '../../../shared/types.js';
import type {
  NotificationDoc,
  ReportDoc,
  ResponseDoc,
  StanceChange,
  StanceDoc,
  SyncCollection,
  TopicDoc,
} from '../../../shared/sync-protocol.js';
import type { LeaderboardEntry, SourceCitation, SourceListing, UserProfile, UserScore } from '../../../shared/types.js';

/** A notification with the reply it is about ('' when not known yet) and whether that reply was deleted. */
export type NotificationItem = Notification & Pick<NotificationDoc, 'response_id' | 'response_deleted'>;

/** What a screen gets for a remote read: the last copy (if any), its age, and how the last fetch went. */
export interface RemoteCopy<T> {
  /** The last copy on this device; null when there is none (never fetched, or not found). */
  value: T | null;
  /** ISO time the copy was fetched; null without a copy. */
  fetchedAt: string | null;
  /** A fetch is under way. */
  loading: boolean;
  /** Why the last fetch failed (message for a person); null when it did not fail. */
  error: string | null;
  /** The server answered 404 (a user page for an unknown user). */
  notFound: boolean;
  /** The copy was not refreshed: offline, or the fetch failed. */
  stale: boolean;
}

export interface LeaderboardCopy {
  entries: LeaderboardEntry[];
  /** The signed-in user's score when they have one (rank even outside the top 100); null otherwise. */
  me: UserScore | null;
}

export interface SourceList {
  items: SourceListing[];
  /** How many sources match (on the server; offline, in the kept copy). */
  total: number;
  /** More can be asked for with a higher `pages`. */
  hasMore: boolean;
}

/** One page of the responses citing a source (GET /api/sources/{id}/responses), newest first. */
export interface CitationPage {
  items: SourceCitation[];
  /** How many responses cite the source in all. */
  total: number;
}

export interface SourcesQuery {
  /** Substring of name, URL or description; '' for every source. */
  filter: string;
  /** How many pages of SOURCES_PAGE_SIZE to show. */
  pages: number;
}

/** Any RxDB storage (Dexie in the browser, fake-indexeddb in Node, a wrapped one in tests). */
export type AnyStorage = RxStorage<unknown, unknown>;

/**
 * What this device could not keep in its storage (it could not be opened, or it is full): that data is
 * kept in this tab's memory instead, and is gone when the tab closes.
 */
export interface StorageNote {
  failure: 'unavailable' | 'full';
  /** Topics and responses read here. */
  publicData: boolean;
  /** The signed-in user's own data: drafts, votes, unsent changes, settings. */
  userData: boolean;
}

/** A topic as the screens show it: the server's item with the local truth laid over it. */
export interface TopicView extends Topic, Pick<TopicDoc, 'stance_agree' | 'stance_disagree' | 'stance_unsure' | 'minds_changed'> {
  /** The server's opinion groups summary as replicated (JSON text, shared/rules/opinion-groups.ts parseOpinionGroups); absent before the topic is stored here. */
  opinion_groups?: string | null;
  /** Created or deleted here and not yet confirmed by the server. */
  isPending: boolean;
  /** Kept for offline reading (its responses stay on the device). */
  isSavedOffline: boolean;
  /**
   * The topic's responses are on this device (pulled at least once since it was opened/saved here).
   * false + offline + responses_count > 0 → the topic page shows
   * "Replies to this topic are not on this device yet; they load when you are back online"
   * instead of "No responses yet."
   */
  responsesOnDevice: boolean;
}

/** A response as the screens show it (quoted_response is joined locally from the same topic). */
export interface ResponseView
  extends Response, Pick<ResponseDoc, 'delta_count' | 'upvotes_agree' | 'upvotes_disagree' | 'downvotes_agree' | 'downvotes_disagree'> {
  /** The caller's vote as on this device: 1 agree, -1 disagree, 0 pass, null none (absent on a first page's preview rows). */
  user_vote?: VoteValue | null;
  /**
   * Joined on the device, so it also carries the quoted author's uid: their name links to their
   * page. Absent only on a first page's preview rows (the REST shape has no uid in the quote).
   */
  quoted_response: (QuotedResponse & { creator_uid?: string }) | null;
  isPending: boolean;
}

/** The signed-in user's own stance on a topic, as on this device. */
export interface StanceView {
  topic_id: string;
  stance: Stance;
  /** The "before". */
  first_stance: Stance;
  /** Oldest first; a change made here and not yet sent is already in it (with this device's time). */
  history: StanceChange[];
  /** Responses credited with Δ for the latest change (≤ 3). */
  credits: string[];
  /** Not yet confirmed by the server. */
  isPending: boolean;
}

/** A topic the signed-in user follows, as on this device. */
export interface FollowedTopicView extends FollowedTopic {
  /** The follow or unfollow is not yet confirmed by the server. */
  isPending: boolean;
}

/** A user the signed-in user blocked, as on this device. */
export interface BlockedUserView extends BlockedUser {
  /** The block is not yet confirmed by the server. */
  isPending: boolean;
}

/** How a topic's responses are ordered: the default (SPEC's order) or common ground first. */
export type ResponseOrder = 'default' | 'common-ground';

/** Live responses of a topic by type (the topic header's balance bar). */
export type ResponseBalance = Record<ResponseType, number>;

/** A topic list and where it comes from (TopicList.savedOnDevice: null for the server's). */
export interface TopicList {
  topics: TopicView[];
  savedOnDevice: number | null;
}

/** What the device keeps of the public data (working-set.ts). */
export interface WorkingSetUsage {
  topics: number;
  responses: number;
  bytes: number;
  budget: number;
}

export interface TopicQuery {
  sort?: Sort; // default 'hot'
  category?: Category; // undefined = All Topics
  /** Words typed in the search box: the server's search online, the titles kept on the device offline. */
  search?: string;
  /** How many rows (infinite scroll grows it). Default 20. */
  limit?: number;
}

export interface SyncStatus {
  /** Browser reports online AND the last request reached the server. */
  online: boolean;
  /** A replication is pulling or pushing right now. */
  syncing: boolean;
  /** Local changes (items, edits, votes, reads, preferences) not yet confirmed by the server. */
  pending: number;
  /** The last replication error for a person, null once a request succeeds again. */
  lastError: string | null;
  /** ISO time of the last successful pull or push; null if never (show "last synced", never block on sync). */
  lastSyncedAt: string | null;
  /** This tab runs the replication and the live stream (one per browser). */
  isLeader: boolean;
  /**
   * The server speaks a newer sync protocol (it answered `sync-outdated`): nothing
   * syncs until the page reloads with the new app; `lastError` holds the message.
   */
  updateRequired: boolean;
  /**
   * The signed-in account can no longer get a token (account removed or disabled, session revoked:
   * the token refresh is refused, not a network failure). Nothing is sent until the person signs in
   * again; `pending` changes are kept on the device (never dropped, never sent as someone else).
   * The UI shows: "Your session has ended: sign in again to send 1 change" (N changes when N > 1).
   */
  sessionEnded: boolean;
  /**
   * The server refused writes as too many too fast (429): until this time (ms since the epoch) they
   * wait, still queued, then go again by themselves. The UI shows "Slow down — trying again in N s".
   * Absent or null when not rate limited.
   */
  rateLimitedUntil?: number | null;
}

export type SyncProblemKind =
  /** The server refused the write (not yours, invalid, deleted meanwhile, signed out). */
  | 'rejected'
  /** Someone changed the item first; the server's state was kept and this is your version. */
  | 'conflict';

/** A local write that did not land as made. Shown to the user; fix (edit and retry) or discard. */
export interface SyncProblem {
  id: string;
  kind: SyncProblemKind;
  collection: SyncCollection;
  /** Id of the item the write was about. */
  itemId: string;
  /** What the user tried: 'create' | 'edit' | 'delete' | 'vote' | 'read' | 'preferences' | 'stance'. */
  action: string;
  /** Message for a person (the server's text). */
  error: string;
  status: number;
  /**
   * The user's version, so their text is never lost (e.g. content, title, topic_id...). For kind
   * 'conflict' on a response edit, localState.content is the user's text and serverState.content the
   * server's current text (both always present).
   */
  localState: Record<string, unknown>;
  /** The server's state at that time, if the item exists there. */
  serverState: Record<string, unknown> | null;
  created_at: string;
}

/** How the person settles a conflict (SyncProblem of kind 'conflict'). */
export type ConflictChoice =
  /** Re-sends the user's version on top of the server's current state. */
  | { keep: 'mine' }
  /** Drops the user's version; the server's stays. */
  | { keep: 'theirs' }
  /** Sends the edited text on top of the server's current state. */
  | { keep: 'merged'; content: string };

/** A topic or response of the user's in an export (the wire document; `pending`: not yet on the server). */
export type ExportedItem = Record<string, unknown> & { id: string; pending: boolean };

/** "Download my data": the signed-in user's own data on this device (format in docs/SYNC.md). */
export interface CruxExport {
  format: 'crux-export';
  version: 1;
  /** ISO time of the export. */
  exported_at: string;
  user: { uid: string; display_name: string | null };
  /** The user's own topics on this device (incl. unsent). */
  topics: ExportedItem[];
  /** The user's own responses on this device (incl. unsent). */
  responses: ExportedItem[];
  votes: { target_type: TargetType; target_id: string; topic_id: string; upvoted: boolean; value: VoteValue | null; updated_at: string }[];
  notifications: Notification[];
  preferences: { receive_weekly_summary: boolean } | null;
  /** The user's own stances on this device; `pending: true` means not yet on the server. */
  stances: (Omit<StanceDoc, 'id' | 'seq' | '_deleted'> & { pending: boolean })[];
  /** The users the user blocks on this device; `pending: true` means not yet on the server. */
  blocks: (BlockedUser & { pending: boolean })[];
  /** The topics the user follows on this device; `pending: true` means not yet on the server. */
  follows: (FollowedTopic & { pending: boolean })[];
  /** The user's own reports on this device; `pending: true` means not yet on the server. */
  reports: (Omit<ReportDoc, 'id' | 'seq' | '_deleted'> & { pending: boolean })[];
  drafts: { key: string; text: string; extra: Record<string, unknown>; updated_at: string }[];
}

export interface NewTopicInput {
  title: string;
  category: Category;
}

export interface NewResponseInput {
  topicId: string;
  /** null/undefined for a root response. */
  parentResponseId?: string | null;
  type: ResponseType;
  content: string;
  quotedResponseId?: string | null;
  sources?: { url: string; name?: string | null; description?: string | null }[];
}

export interface EditResponseInput {
  content: string;
  quotedResponseId?: string | null;
  sources?: { url: string; name?: string | null; description?: string | null }[];
  /**
   * The response as the editor showed it when the edit began: what the change is made on. A pull can
   * bring another device's change while the editor is open, or before the save is written; the push
   * then meets a conflict instead of writing over a text the person never saw.
   */
  editedFrom?: {
    content: string;
    quotedResponseId: string | null;
    sources: { url: string; name?: string | null; description?: string | null }[];
  };
}

export interface Draft {
  /** Free key chosen by the UI, e.g. `reply:<responseId>` or `topic:new`. */
  key: string;
  text: string;
  /** Anything else the form keeps (type, quote, sources...). */
  extra: Record<string, unknown>;
  updated_at: string;
}

/** A draft kept on this device under another account than the one signed in (or under any, signed out). */
export interface UnsentDraft {
  /** The uid it was typed as. */
  owner: string;
  key: string;
  text: string;
  updated_at: string;
}

/** The signed-in user as the data layer needs it. */
export interface SessionUser {
  uid: string;
  /** A fresh Firebase ID token for each request (`user.getIdToken(forceRefresh)`); null/throw when impossible. */
  getToken(forceRefresh?: boolean): Promise<string | null>;
}

/** The signed-in user's own role and suspension, from their synced profile. */
export interface MyAccount {
  uid: string;
  role: Role;
  /** Suspended until this ISO time (SUSPENDED_FOR_GOOD: for good); null when not suspended. May be past. */
  suspended_until: string | null;
  suspension_reason: string | null;
}

export interface CruxDataOptions {
  /** Origin of the server ('' in the browser = same origin; a URL in tests). */
  baseUrl: string;
  /** RxDB storage; default Dexie on the browser's IndexedDB. Tests pass Dexie over fake-indexeddb. */
  storage?: AnyStorage;
  fetch?: typeof fetch;
  /** Where 'online'/'offline' events fire (window in the browser). */
  events?: EventTarget;
  /** Current online flag (navigator.onLine). */
  isOnline?: () => boolean;
  /** Database name prefix (one browser profile = one prefix). Default 'crux'. */
  dbPrefix?: string;
  /** RxDB dev-mode checks; default true only in development and tests. */
  devMode?: boolean;
  /** Several tabs share the databases (leader election). Default true. */
  multiInstance?: boolean;
  /**
   * A second instance of the same database in this JavaScript realm: 'close' the
   * older one (default; hot reload) or 'allow' both (tests simulating two tabs in one process).
   */
  duplicateInstances?: 'close' | 'allow';
  /** How many recently opened topics keep their responses (saved ones are extra). Default 50. */
  keepTopics?: number;
  /** Wait before retrying a failed request. Default 5000 ms. */
  retryTimeMs?: number;
  /**
   * Settles once the app knows who is signed in (on a reload Firebase restores the persisted user a
   * moment after the screens know it) and has called signIn or signOut for them: calls made as the
   * user wait for it, then for that sign-in (session.ts). Default: settled (the caller signs in first).
   */
  sessionKnown?: Promise<unknown>;
}

export interface CruxData {
  // ---- session ----
  /** Opens the user's database and starts their replication; call from onAuthStateChanged. */
  signIn(user: SessionUser): Promise<void>;
  /**
   * Closes the user's database (RxDB caps open collections) and goes back to public data.
   * removeData: also delete this user's database (votes, notifications, profile, drafts, set-aside and
   * unsent writes) and the cached public data from this device.
   * byUser: the person logged out (the Logout dialog). Without it (Firebase no longer has the user)
   * a session that ended with writes still waiting is said so by the status (ended-session.ts);
   * endedUid: the user Firebase did not restore on this load, whose session ended meanwhile.
   */
  signOut(options?: { removeData?: boolean; byUser?: boolean; endedUid?: string | null }): Promise<void>;
  readonly uid$: Observable<string | null>;

  // ---- status ----
  readonly status$: Observable<SyncStatus>;

  // ---- reads (all from the local database, live) ----
  /** A topic list: online the server's pages (kept on the device as shown), offline the topics this device keeps. */
  topics$(query?: TopicQuery): Observable<TopicView[]>;
  /** topics$ with where it comes from: `savedOnDevice` is null for the server's list, else how many topics this device holds for it. */
  topicList$(query?: TopicQuery): Observable<TopicList>;
  /** What this device keeps of the site's public data, and its budget (working-set.ts). */
  deviceStorage$(): Observable<WorkingSetUsage>;
  /** Sets the budget of public data on this device, in bytes; the least recently seen topics leave at once to fit. */
  setStorageBudget(bytes: number): Promise<void>;
  /** undefined while not known yet (first sync running), null when it does not exist. */
  topic$(topicId: string): Observable<TopicView | null | undefined>;
  /**
   * Root responses of a topic, oldest first; with 'common-ground', the highest common-ground score
   * first (shared/rules/common-ground.ts, sides from the topic's stance counts), ties oldest first.
   */
  rootResponses$(topicId: string, order?: ResponseOrder): Observable<ResponseView[]>;
  /** Direct replies of a response, oldest first. */
  replies$(responseId: string): Observable<ResponseView[]>;
  /** Every live response of the topic (for the tree and the quote search panel). */
  topicResponses$(topicId: string): Observable<ResponseView[]>;
  /** Live responses of the topic by type, from the local store. */
  responseBalance$(topicId: string): Observable<ResponseBalance>;
  /** The signed-in user's stance on the topic; null when none is recorded or signed out. */
  stance$(topicId: string): Observable<StanceView | null>;
  /** Ids from the root response down to `responseId` (inclusive), for quote navigation. */
  ancestorPath(responseId: string): Promise<string[]>;
  /**
   * The signed-in user's notifications, newest first. Nothing until their first pull has ended
   * (so a fresh sign-in reads as loading, not as none), unless offline or in a follower tab.
   */
  notifications$(): Observable<NotificationItem[]>;
  unreadCount$(): Observable<number>;
  /** null when signed out. */
  preferences$(): Observable<Preferences | null>;
  /** The signed-in user's push settings, from their synced profile; null signed out or not pulled yet. */
  pushSettings$(): Observable<PushSettings | null>;
  syncProblems$(): Observable<SyncProblem[]>;
  /** What the device's storage could not keep (kept in memory instead); null while everything is kept. */
  storageNote$(): Observable<StorageNote | null>;
  /** Ids of topics kept for offline reading. */
  savedTopics$(): Observable<string[]>;
  /** A page of the responses citing a source, newest first (asks the server; rejects offline). */
  sourceCitations(sourceId: string, offset: number): Promise<CitationPage>;
  /** The site's source catalogue by name, URL or description (asks the server; [] offline). */
  searchSources(text: string): Promise<Source[]>;
  /** The sources page (filtered, `pages` × 50) with the responses citing each: fetched online, the last unfiltered copy kept for offline reading. */
  sources$(query: SourcesQuery): Observable<RemoteCopy<SourceList>>;
  /** The leaderboard and the signed-in user's own score: fetched while online, the last copy kept for offline reading. */
  leaderboard$(): Observable<RemoteCopy<LeaderboardCopy>>;
  /** A user's page (name, points, rank, topics, responses): fetched while online, the last copy kept. */
  userProfile$(uid: string): Observable<RemoteCopy<UserProfile>>;
  /** The signed-in user's points (live from their profile) and rank; null when signed out or without a score. */
  score$(): Observable<UserScore | null>;
  /** The users the signed-in user blocks, most recently blocked first; [] when signed out. Live, offline too. */
  blockedUsers$(): Observable<BlockedUserView[]>;
  /**
   * The uids the signed-in user blocks, as one shared live set (every row of a list reads it to collapse
   * a blocked author's items); empty when signed out, null when the data cannot be read.
   */
  blockedUids$(): Observable<ReadonlySet<string> | null>;
  /** The signed-in user's role and suspension, live from their synced profile; null when signed out. */
  myAccount$(): Observable<MyAccount | null>;
  /**
   * The topics the signed-in user follows, most recently followed first, unfollowed ones
   * included (following: false) so a topic page can tell; [] when signed out. Live, offline too.
   */
  follows$(): Observable<FollowedTopicView[]>;

  // ---- moderation: asked of the server as the signed-in user; rejects offline ----
  /** GET /api/moderation/reports: the queue's page (limit 0: only its `total`). 403 for members. */
  moderationQueue(status: ReportStatus, limit: number, offset: number): Promise<ModerationQueuePage>;
  /** POST /api/moderation/actions: rejects with the server's text (e.g. MSG.cannotActOnAdmin). */
  moderate(input: ModerationActionInput): Promise<ModerationLogEntry>;
  /** GET /api/moderation/log: newest first. */
  moderationLog(limit: number, offset: number): Promise<ModerationLogPage>;
  /** GET /api/moderation/original/{type}/{id}: a removed or hidden item's own text (its author and moderators). */
  moderatedOriginal(targetType: 'topic' | 'response', targetId: string): Promise<ModeratedOriginal>;
  /** GET /api/moderation/users/{uid}: a user's role and running suspension (moderators). */
  moderatedUser(uid: string): Promise<ModeratedUser>;
  /** PUT /api/users/{uid}/role (admins). */
  setUserRole(uid: string, role: 'member' | 'moderator'): Promise<RoleChange>;
  /**
   * DELETE /api/me: deletes the signed-in user's account on the server ('delete' erases their topics'
   * and responses' text, 'anonymise' keeps it under "deleted user"). Rejects offline. The caller then
   * signs out with removeData (the account's data leaves this device too).
   */
  deleteAccount(content: AccountContentChoice): Promise<void>;

  // ---- the server's subscriptions outside sync: asked of the server; reject offline ----
  /** GET /api/push/config: the key this device's push subscription is made with. */
  pushPublicKey(): Promise<string>;
  /** PUT /api/push/subscription: this device's push subscription, now the signed-in user's. */
  savePushSubscription(subscription: PushSubscriptionJSON): Promise<void>;
  /** DELETE /api/push/subscription: the server no longer pushes to this endpoint for the signed-in user. */
  removePushSubscription(endpoint: string): Promise<void>;
  /** POST /api/unsubscribe: a weekly mail's one-click unsubscribe with its signed token (no sign-in). */
  confirmUnsubscribe(token: string): Promise<void>;

  // ---- writes (local at once, replicated when possible; throw CruxError with a message for a person) ----
  createTopic(input: NewTopicInput): Promise<TopicView>;
  deleteTopic(topicId: string): Promise<void>;
  createResponse(input: NewResponseInput): Promise<ResponseView>;
  editResponse(responseId: string, input: EditResponseInput): Promise<void>;
  /** Deletes the response and (on the server) its whole subtree. */
  deleteResponse(responseId: string): Promise<void>;
  /** Toggles the caller's upvote (agree); resolves to the new state. */
  toggleVote(targetType: TargetType, targetId: string): Promise<boolean>;
  /**
   * Sets the caller's vote on a response: agree 1, disagree -1, pass 0, or null to take it back (one
   * vote per person and response; a topic takes an agree only). Local at once, sent like any write.
   */
  castVote(targetType: TargetType, targetId: string, value: VoteValue | null): Promise<void>;
  /**
   * Records the caller's stance on the topic (the first one is their "before"; a different one is a
   * change and starts an empty list of credits). Local at once, replicated like any write.
   */
  setStance(topicId: string, stance: Stance): Promise<void>;
  /**
   * Credits responses with Δ for the latest change of the caller's stance (replaces that change's
   * list; [] withdraws). Refused with shared/rules/deltas.ts creditProblem's error.
   */
  creditDeltas(topicId: string, responseIds: string[]): Promise<void>;
  /**
   * Blocks a user: their topics and responses collapse on this user's devices and their
   * replies no longer notify them. Local at once (`isPending`), replicated like any write; yourself:
   * MSG.blockSelf; signed out: MSG.loginToBlock. `displayName`: their name as shown, until the server's.
   */
  blockUser(uid: string, displayName: string | null): Promise<void>;
  /** Unblocks a user (nothing when not blocked); local at once, replicated like any write. */
  unblockUser(uid: string): Promise<void>;
  /**
   * Follows a topic: new root responses in it notify the user. Local at once, replicated
   * like any write; signed out: MSG.loginToFollow. `title`: as shown, until the server's arrives.
   */
  followTopic(topicId: string, title: string | null): Promise<void>;
  /** Unfollows a topic (kept: replying there later does not follow it again); local at once. */
  unfollowTopic(topicId: string): Promise<void>;
  /**
   * Reports a topic, a response or a user: one report per target (again: updates it).
   * Local at once, replicated like any write; refused signed out (MSG.loginToReport) or for one's own item.
   */
  report(targetType: ReportTargetType, targetId: string, reason: ReportReason, note?: string | null): Promise<void>;
  markRead(notificationId: string): Promise<void>;
  markAllRead(): Promise<void>;
  setWeeklySummary(receive: boolean): Promise<void>;
  /** Local at once, synced with the profile. */
  setPushSettings(settings: PushSettings): Promise<void>;
  saveDraft(key: string, text: string, extra?: Record<string, unknown>): Promise<void>;
  /** Waits until a sign-in in progress has opened the user's database (never null just because it is still opening). */
  loadDraft(key: string): Promise<Draft | null>;
  deleteDraft(key: string): Promise<void>;
  /**
   * The drafts for `key` kept on this device under another account than the signed-in one (signed
   * out: under any), newest first: typed before the identity provider gave the same person a new
   * uid, or by another account that kept its data here. A composer offers them back.
   */
  unsentDrafts(key: string): Promise<UnsentDraft[]>;
  /** Makes `owner`'s draft for `key` the signed-in user's, holding `text` (what their box shows now). */
  adoptDraft(owner: string, key: string, text: string): Promise<void>;
  /** Deletes `owner`'s draft for `key` from this device (the person chose Discard). */
  discardDraft(owner: string, key: string): Promise<void>;
  /** Starts (or refreshes) replication of the topic's responses; call when the topic page opens. */
  openTopic(topicId: string): Promise<void>;
  /** Keeps (or stops keeping) a topic's responses for offline reading regardless of recency. */
  saveTopicOffline(topicId: string, saved: boolean): Promise<void>;
  /**
   * Retries a refused ('rejected') problem's write with the user's corrected values (e.g. { content }),
   * under the write's original id. A 'conflict' is refused here: see resolveConflict.
   */
  fixProblem(problemId: string, patch?: Record<string, unknown>): Promise<void>;
  /** Resolves a conflict problem; nothing is overwritten without this call. */
  resolveConflict(problemId: string, choice: ConflictChoice): Promise<void>;
  /** The signed-in user's own data on this device as JSON (works offline); format documented in docs/SYNC.md. */
  exportMyData(): Promise<CruxExport>;
  /** Imports the drafts of an export made by the same user (other users' drafts are refused); resolves to the count imported. */
  importDrafts(exported: unknown): Promise<number>;
  /** Forgets a problem (the user's version is dropped). */
  discardProblem(problemId: string): Promise<void>;

  /** Stops replication and closes every database. */
  close(): Promise<void>;
}
