// The data of a page's first screen, put into the shell the server sends to a first visit (// first load): on a phone the rows then paint with the page, not after the data layer's chunk, the
// local database and the first pull. The service worker answers later visits with the precached shell,
// except a topic's page, which it keeps from the last visit by address (vite.config.ts, runtimeCaching).
import { CATEGORIES, FIRST_SCREEN_ROOTS, PAGE_SIZE, type Category } from '../../../shared/constants.js';
import type { FirstPageData } from '../../../shared/types.js';
import type { DomainContext } from '../domain/context.js';
import { presentAll, rootResponsesPage } from '../domain/responses.js';
import { listTopics } from '../domain/topics.js';
import { CruxError } from '../../../shared/errors.js';
import type { Context } from 'hono';
import { RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { type ResponseRow, type TopicRow, toTopic } from '../store/rows.js';
import { sidesOf, type CaseSide } from '../../../shared/rules/strongest-case.js';
import { createTopicSummaries, type TopicSummaries } from '../domain/topic-summary.js';

const TOPIC_PAGE = /^\/topics\/([^/]+)\/?$/;
/** One response's own address: the topic's page, scrolled to it (the app's router), with its own share card. */
const RESPONSE_PAGE = /^\/topics\/([^/]+)\/responses\/([^/]+)\/?$/;
/** Parents walked up to find a reply's side (a deeper reply's card names none). */
const SIDE_DEPTH = 50;

/** A page's first screen, and for a response's address the side that response argues (its share card says so). */
export interface SharePageData extends FirstPageData {
  responseSide?: CaseSide | null;
}
const CATEGORY_PAGE = /^\/c\/([^/]+)\/?$/;

/**
 * What `path` shows first, or null for a page without a first screen of its own (or a missing topic).
 * A topic's strongest case comes from `summaries` (a kept summary: it reads the topic's responses).
 */
export async function firstPageFor(
  ctx: DomainContext,
  path: string,
  summaries: TopicSummaries = createTopicSummaries(ctx),
): Promise<SharePageData | null> {
  const responsePage = RESPONSE_PAGE.exec(path);
  if (responsePage) {
    const topicId = decoded(responsePage[1]);
    const responseId = decoded(responsePage[2]);
    if (topicId === undefined || responseId === undefined) return null;
    const page = await firstPageFor(ctx, `/topics/${encodeURIComponent(topicId)}`, summaries);
    if (!page?.topic) return null;
    const row = await ctx.store.responses.get(responseId, null);
    // Another topic's response, or one deleted: the topic's own card.
    if (!row || row.deleted || row.topic_id !== topicId) return page;
    const [response] = await presentAll(ctx, [row]);
    return { ...page, response: response!, responseSide: await sideOf(ctx, row) };
  }
  const topicId = decoded(TOPIC_PAGE.exec(path)?.[1]);
  if (topicId !== undefined) {
    // One read of the topic's row: what GET /api/topics/{id} answers, and its stance counts.
    const row = await ctx.store.topics.get(topicId, null);
    // A missing or deleted topic: the app says so itself.
    if (!row || row.deleted) return null;
    try {
      const responses = (await rootResponsesPage(ctx, topicId, null, null, FIRST_SCREEN_ROOTS)).items;
      // The panel above the arguments paints with the page: drawn later, it pushed everything below it down.
      const summary = await summaries.get(topicId);
      return {
        topic: toTopic(row),
        responses,
        stances: participantStances(row),
        ...(summary ? { strongest: summary.strongest } : {}),
      };
    } catch (error) {
      // A missing or deleted topic: the app says so itself.
      if (error instanceof CruxError) return null;
      throw error;
    }
  }
  const category = path === '/' ? null : decoded(CATEGORY_PAGE.exec(path)?.[1]);
  if (category === undefined || (category !== null && !isCategory(category))) return null;
  const items = await listTopics(ctx, { sort: 'hot', limit: PAGE_SIZE, offset: 0, ...(category ? { category } : {}) }, null);
  return { topics: { sort: 'hot', category, items } };
}

/**
 * firstPageFor, with a topic's page counted as an expensive read (it reads the topic and its first
 * roots for anyone, per address). Over the limit the page still goes out, as the plain shell: a
 * person gets the app, which loads the topic itself through sync (limited on its own).
 */
export function limitedFirstPage(ctx: DomainContext, limits: RateLimits) {
  const summaries = createTopicSummaries(ctx);
  return async (path: string, c: Context): Promise<SharePageData | null> => {
    if (TOPIC_PAGE.test(path) || RESPONSE_PAGE.test(path)) {
      try {
        await limits.read(c, null, RATE_LIMIT_MSG.requests);
      } catch (error) {
        if (!(error instanceof CruxError) || error.code !== 'rate-limited') throw error;
        c.header('Retry-After', undefined);
        return null;
      }
    }
    return firstPageFor(ctx, path, summaries);
  };
}

/**
 * The stance bar's counts, kept on the topic's row: without them a first screen would read "0 agree"
 * until the local store has the topic. (The responses' count by type is a count over the whole
 * topic, too dear for every first page: that bar fills from the local store.)
 */
const participantStances = (row: TopicRow): FirstPageData['stances'] => ({
  topic_id: row.id,
  agree: row.stance_agree,
  disagree: row.stance_disagree,
  unsure: row.stance_unsure,
  minds_changed: row.minds_changed,
});

/** The side of the topic's question `row` argues: its own type for a root, through its parents for a reply. */
async function sideOf(ctx: DomainContext, row: ResponseRow): Promise<CaseSide | null> {
  const chain: ResponseRow[] = [row];
  let at = row;
  while (at.parent_response_id !== null && chain.length <= SIDE_DEPTH) {
    const parent = await ctx.store.responses.get(at.parent_response_id, null);
    if (!parent) break;
    chain.push(parent);
    at = parent;
  }
  return sidesOf(chain).get(row.id) ?? null;
}

const isCategory = (value: string): value is Category => (CATEGORIES as readonly string[]).includes(value);

function decoded(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The element the app reads (app/src/data/first-page.ts). */
export const FIRST_PAGE_ELEMENT_ID = 'crux-first-page';

/**
 * The shell with the data as a JSON data block before `</head>` (never executed, so the CSP is
 * unaffected); `<` is escaped so no text in a title or response can close the element. `head`
 * goes with it (the preloads of the page's own chunks).
 */
export function withFirstPage(shell: string, data: FirstPageData, head = ''): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const block = `${head}<script type="application/json" id="${FIRST_PAGE_ELEMENT_ID}">${json}</script>`;
  const at = shell.indexOf('</head>');
  return at < 0 ? block + shell : shell.slice(0, at) + block + shell.slice(at);
}
