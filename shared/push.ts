// Web Push: what the server pushes to a device and what the service worker shows from it.

/** The JSON inside one push (encrypted to the device, RFC 8291): one notification the bell counts. */
export interface PushPayload {
  notification_id: string;
  type: string;
  topic_id: string;
  /** The topic's title, for the collapsed "3 new replies in …". */
  topic_title: string;
  response_id: string;
  /** Who acted ("A moderator" for a moderator's notice). */
  actor: string;
  /** The bell's own text: 'replied to your topic: "…"'. */
  text: string;
  /** Where a click leads: /topics/{id}#response-{rid}. */
  url: string;
  /** One shown notification per topic: a newer push for it replaces (and counts) the one shown. */
  tag: string;
  created_at: string;
}

/** What the service worker tells an open window when a notification is tapped: go to `url`, mark `ids` read. */
export interface NotificationClickMessage {
  type: 'crux:notification-click';
  url: string;
  ids: string[];
}

/** The query parameter naming the notifications to mark read, when a tap opens a new window. */
export const PUSH_READ_PARAM = 'read';

/** Pushes for one topic within this long of the one shown collapse into "N new replies in …". */
export const PUSH_COLLAPSE_MS = 60_000;

/** GET /api/push/config: the key a device subscribes with. */
export interface PushConfig {
  public_key: string;
}

export const pushTag = (topicId: string) => `topic-${topicId}`;

/** What a user wants pushed, synced with their profile: per kind, and quiet hours. */
export interface PushSettings {
  /** Replies to the user's topics and responses. */
  replies: boolean;
  /** A moderator's removal or restoration of the user's item. */
  moderation: boolean;
  /** Someone named the user with an @mention. */
  mentions: boolean;
  /** A new response in a topic the user follows. */
  follows: boolean;
  /**
   * Not a push kind: whether the user follows the topics they create or reply to. Kept
   * with the notification settings because it decides which notifications arrive at all.
   */
  follow_on_reply: boolean;
  /** No push from `start` to `end` ("HH:MM", the user's `time_zone`); the bell still counts. */
  quiet_hours: { start: string; end: string; time_zone: string } | null;
}

export const DEFAULT_PUSH_SETTINGS: PushSettings = {
  replies: true,
  moderation: true,
  mentions: true,
  follows: true,
  follow_on_reply: true,
  quiet_hours: null,
};

/** Settings in one canonical shape (key order, missing parts defaulted): compared and stored as such. */
export function normalizePushSettings(value: unknown): PushSettings {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<PushSettings>;
  const q = v.quiet_hours;
  return {
    replies: v.replies !== false,
    moderation: v.moderation !== false,
    mentions: v.mentions !== false,
    follows: v.follows !== false,
    follow_on_reply: v.follow_on_reply !== false,
    quiet_hours: q && typeof q === 'object' ? { start: String(q.start), end: String(q.end), time_zone: String(q.time_zone) } : null,
  };
}

export type PushKind = 'replies' | 'moderation' | 'mentions' | 'follows';

/** Which setting governs a notification type. */
export function pushKindOf(type: string): PushKind {
  if (type.startsWith('moderation_')) return 'moderation';
  if (type === 'mention') return 'mentions';
  if (type === 'reply_in_followed_topic') return 'follows';
  return 'replies';
}

/** "HH:MM" of `at` in the time zone (an unknown zone reads as UTC). */
export function clockIn(timeZone: string, at: Date): string {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    at,
  );
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

/** Whether `at` falls in the quiet hours ([start, end), across midnight when end < start; start = end: never). */
export function inQuietHours(settings: PushSettings, at: Date): boolean {
  const quiet = settings.quiet_hours;
  if (!quiet || quiet.start === quiet.end) return false;
  const now = clockIn(quiet.time_zone, at);
  return quiet.start < quiet.end ? now >= quiet.start && now < quiet.end : now >= quiet.start || now < quiet.end;
}

/** Whether a notification of this type may be pushed to the user now. */
export const mayPush = (settings: PushSettings, type: string, at: Date): boolean =>
  settings[pushKindOf(type)] && !inQuietHours(settings, at);
