// Business constants of the product specification and the limits decided for them (docs/RULES.md).
// Both the app and the server read them from here so a limit is stated once.

export const PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Roots on a topic page's first screen: read first from the local store, and sent with a first visit's page. */
export const FIRST_SCREEN_ROOTS = 25;
/**
 * The service worker keeps topic pages (the server's page with its first screen) in caches named
 * this plus a build stamp (vite.config.ts); the app removes them with the local data and drops
 * other builds' ones.
 */
export const TOPIC_PAGES_CACHE_PREFIX = 'crux-topic-pages-';
export const SEARCH_DEBOUNCE_MS = 300;
export const MIN_SEARCH_LENGTH = 3;
export const QUOTE_SUGGESTION_CHARS = 60;
export const QUOTED_BLOCK_CHARS = 80;
export const PLACEHOLDER_CHARS = 100;
export const REPLY_INDENT_PX = 20;
export const LEADERBOARD_SIZE = 100;
export const NOTIFICATION_SUMMARY_CHARS = 100;
/** At most this many people are notified of their @mention in one response (the rest still link). */
export const MAX_MENTIONS_NOTIFIED = 5;
/** Names the composer suggests after an "@" at most. */
export const MENTION_SUGGESTIONS = 6;

export const LIMITS = {
  title: 300,
  content: 10_000,
  sourcesPerResponse: 10,
  sourceUrl: 2_048,
  sourceName: 200,
  sourceDescription: 1_000,
  displayName: 100,
  bodyBytes: 1024 * 1024,
} as const;

/** The fixed category list, in display order. */
export const CATEGORIES = [
  'Politics',
  'Science',
  'Technology',
  'Philosophy',
  'Economics',
  'Society',
  'Health',
  'Environment',
  'Education',
  'Culture',
  'Other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const SORTS = ['hot', 'new', 'top'] as const;
export type Sort = (typeof SORTS)[number];

export const RESPONSE_TYPES = ['for', 'against', 'neutral'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

export const TARGET_TYPES = ['topic', 'response'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * A person's vote on a topic or response, as stored (votes.value): agree (the upvote), disagree (the
 * downvote), pass (read, no opinion). Only agree moves a score or points.
 */
export const VOTE_VALUES = { agree: 1, disagree: -1, pass: 0 } as const;
export type VoteValue = (typeof VOTE_VALUES)[keyof typeof VOTE_VALUES];
export type VoteKind = keyof typeof VOTE_VALUES;

/** Where a user stands on a topic's question: private to them, counted on the topic. */
export const STANCES = ['agree', 'disagree', 'unsure'] as const;
export type Stance = (typeof STANCES)[number];

/** "This changed my view" (Δ): at most this many responses credited per change of stance. */
export const MAX_DELTAS_PER_CHANGE = 3;
/** Persuasion points a response's author earns for each Δ it receives (added to their points). */
export const PERSUASION_POINTS_PER_DELTA = 5;

/**
 * Replies (SPEC), a moderator's removal or restore of the recipient's topic or response, and
 * an @mention of the recipient and a new root response in a topic they follow.
 */
export const NOTIFICATION_TYPES = [
  'reply_to_topic',
  'reply_to_comment',
  'moderation_removed',
  'moderation_restored',
  'mention',
  'reply_in_followed_topic',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Followed-topic notifications one follower gets per topic and hour at most: a busy
 * debate reminds them to come back without ringing for every response.
 */
export const FOLLOW_NOTIFY_PER_HOUR = 3;

/** Opaque ids: 1–64 characters of [A-Za-z0-9_-]. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// ---- moderation ----

/** A user's role: the Firebase custom claim ROLE_CLAIM, read from the verified ID token. */
export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_CLAIM = 'crux_role';
/** Moderators and admins see the queue and act on reports. */
export const isModerator = (role: Role | null | undefined): boolean => role === 'moderator' || role === 'admin';

export const REPORT_TARGET_TYPES = ['topic', 'response', 'user'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export const REPORT_REASONS = ['spam', 'harassment', 'hate', 'misinformation', 'off-topic', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ['open', 'handled'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_NOTE_MAX = 500;

/** What a moderator does from the queue (POST /api/moderation/actions). */
export const MODERATION_ACTIONS = ['remove', 'restore', 'dismiss', 'lock', 'unlock', 'suspend', 'unsuspend'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/**
 * What the moderation log records: the actions, the automatic hide, the alert that an item's
 * reporters' accounts were made close together, and role changes.
 */
export const MODERATION_LOG_ACTIONS = [...MODERATION_ACTIONS, 'hide', 'alert', 'role'] as const;
export type ModerationLogAction = (typeof MODERATION_LOG_ACTIONS)[number];
export const MODERATION_REASON_MAX = 500;
/** The longest timed suspension; without `days` a suspension is for good. */
export const MAX_SUSPENSION_DAYS = 3650;
/** suspended_until of a suspension for good. */
export const SUSPENDED_FOR_GOOD = '9999-12-31T23:59:59.999Z';

/** A topic or response a moderator removed, or hid automatically pending review (null: neither). */
export const MODERATION_STATES = ['removed', 'hidden'] as const;
export type ModerationState = (typeof MODERATION_STATES)[number];

/** Defaults of the server's moderation limits (each has an environment variable, docs/OPERATIONS.md). */
export const MODERATION_DEFAULTS = {
  /** AUTO_HIDE_REPORTS: distinct reporters with standing that hide an item pending review. */
  autoHideReports: 3,
  /** NEW_USER_TOPICS_PER_DAY: topics a new account may create in 24 hours. */
  newUserTopicsPerDay: 3,
  /** NEW_USER_LINKS: sources a new account may cite in one response. */
  newUserLinks: 2,
  /** NEW_ACCOUNT_HOURS: an account is new for this long (and while it has 0 points). */
  newAccountHours: 24,
  /** SPAM_REPEATS: the same content posted more than this many times in SPAM_WINDOW_MINUTES is refused. */
  spamRepeats: 3,
  spamWindowMinutes: 60,
} as const;

/** Web Push. */
export const PUSH_LIMITS = {
  /** A push service endpoint URL (FCM's and Mozilla's are under 300 characters). */
  endpointChars: 2_048,
  /** Devices with push on per user: the oldest is dropped past it (one reply never fans out without bound). */
  devicesPerUser: 10,
} as const;
