// What a topic shows outside the app (share cards, their image, the read-only embed): its title, the
// balance of its participants' stances, its first root responses and the strongest case on each side,
// read from the server's own rows. Kept in a small in-process cache keyed by the topic's row state, so
// a crawler (or a busy page embedding it) asking again does not read every response again.
import { LRUCache } from 'lru-cache';
import { strongestCase } from '../../../shared/rules/strongest-case.js';
import type { FirstScreenArgument, Response, Topic } from '../../../shared/types.js';
import { toTopic, type Checkpoint, type ResponseRow, type TopicRow } from '../store/rows.js';
import type { DomainContext } from './context.js';
import { rootResponsesPage } from './responses.js';

/** Root responses an embed lists. */
export const EMBED_FIRST_RESPONSES = 5;
/** Responses read for the strongest case: past it, the earliest ones (a debate's size seldom reaches it). */
const CASE_READ_CAP = 5_000;
const CASE_PAGE = 1_000;
/** Topics whose summary is kept. */
const SUMMARIES_KEPT = 200;
/**
 * A vote on a response changes the strongest case without touching the topic's row (the cache's key):
 * a summary is trusted this long at most.
 */
const SUMMARY_TTL_MS = 60_000;

/** One of the strongest case's arguments, with the figures its line in the app reads (FirstScreenArgument). */
export type StrongArgument = FirstScreenArgument;

export interface TopicSummary {
  topic: Topic;
  stances: { agree: number; disagree: number; unsure: number };
  /** The first root responses, oldest first; none a moderator removed or hid. */
  firstResponses: Response[];
  strongest: { for: StrongArgument[]; against: StrongArgument[] };
  /** Names this state of the topic (its row's seq and counts): an image or page made from it keeps its ETag. */
  version: string;
}

/** A topic a moderator removed or hid, or deleted, shows nothing of its text outside the app. */
export const isShowable = (row: TopicRow | null | undefined): row is TopicRow => row != null && !row.deleted && row.moderation == null;

const versionOf = (row: TopicRow) => [row.seq, row.responses_count, row.stance_agree, row.stance_disagree, row.stance_unsure].join('-');

export interface TopicSummaries {
  /** The topic's summary, or null when it is missing, deleted or moderated. */
  get(topicId: string): Promise<TopicSummary | null>;
}

export function createTopicSummaries(ctx: DomainContext, kept = SUMMARIES_KEPT, ttlMs = SUMMARY_TTL_MS): TopicSummaries {
  const cache = new LRUCache<string, TopicSummary>({ max: kept, ttl: ttlMs });
  return {
    async get(topicId) {
      const row = await ctx.store.topics.get(topicId, null);
      if (!isShowable(row)) return null;
      const version = versionOf(row);
      const key = `${topicId}:${version}`;
      const hit = cache.get(key);
      if (hit && (await allStillShown(ctx, hit))) return hit;
      const summary = await readSummary(ctx, row, version);
      cache.set(key, summary);
      return summary;
    },
  };
}

/**
 * Whether every response a kept summary quotes is still live and unmoderated: a moderator's removal
 * or an author's deletion need not change the topic's row (the cache's key), and must not wait for
 * the summary's time to run out.
 */
async function allStillShown(ctx: DomainContext, summary: TopicSummary): Promise<boolean> {
  const ids = [...summary.firstResponses, ...summary.strongest.for, ...summary.strongest.against].map((r) => r.id);
  for (const id of ids) {
    const row = await ctx.store.responses.get(id, null);
    if (!row || row.deleted || row.moderation !== null) return false;
  }
  return true;
}

async function readSummary(ctx: DomainContext, row: TopicRow, version: string): Promise<TopicSummary> {
  const roots = (await rootResponsesPage(ctx, row.id, null, null, EMBED_FIRST_RESPONSES * 2)).items;
  const firstResponses = roots.filter((r) => r.moderation === null).slice(0, EMBED_FIRST_RESPONSES);
  const responses = await liveResponses(ctx, row.id);
  const best = strongestCase(responses, { agree: row.stance_agree, disagree: row.stance_disagree });
  const argument = (r: ResponseRow): StrongArgument => ({
    id: r.id,
    content: r.content,
    username: r.username,
    upvotes_agree: r.upvotes_agree,
    upvotes_disagree: r.upvotes_disagree,
    downvotes_agree: r.downvotes_agree,
    downvotes_disagree: r.downvotes_disagree,
  });
  return {
    topic: toTopic(row),
    stances: { agree: row.stance_agree, disagree: row.stance_disagree, unsure: row.stance_unsure },
    firstResponses,
    strongest: { for: best.for.map((a) => argument(a.response)), against: best.against.map((a) => argument(a.response)) },
    version,
  };
}

/** The topic's live responses (replies too: a reply's side comes from its parent), as sync reads them. */
async function liveResponses(ctx: DomainContext, topicId: string): Promise<ResponseRow[]> {
  const rows: ResponseRow[] = [];
  let from: Checkpoint = { seq: 0, id: '' };
  for (let read = 0; read < CASE_READ_CAP; read += CASE_PAGE) {
    const page = await ctx.store.responses.changesSince(topicId, from, CASE_PAGE, null);
    rows.push(...page.filter((r) => !r.deleted));
    if (page.length < CASE_PAGE) break;
    const last = page[page.length - 1]!;
    from = { seq: last.seq, id: last.id };
  }
  return rows;
}
