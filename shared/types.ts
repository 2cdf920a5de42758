// The entities of SPEC.md §3 as they travel over the REST API (snake_case).
import type { Category, NotificationType, ResponseType, Stance, TargetType } from './constants.js';

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
  username: string | null;
  creator_uid: string;
  score: number;
  user_has_upvoted: boolean;
  user_has_downvoted: boolean;
  comment_count: number;
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
