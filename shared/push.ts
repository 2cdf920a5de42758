// Web Push (issue 26): what the server pushes to a device and what the service worker shows from it.

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

/** Pushes for one topic within this long of the one shown collapse into "N new replies in …". */
export const PUSH_COLLAPSE_MS = 60_000;

/** GET /api/push/config: the key a device subscribes with. */
export interface PushConfig {
  public_key: string;
}

export const pushTag = (topicId: string) => `topic-${topicId}`;
