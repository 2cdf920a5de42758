// Response operations: the tree reads, create (with notifications), inline edit,
// and delete of a whole subtree. Counters are maintained (added to) in the same transaction.
import type { AuthUser } from '../auth/verifier.js';
import { NOTIFICATION_SUMMARY_CHARS, VOTE_VALUES, type ResponseType } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import type { CreateResponseInput, UpdateResponseInput } from '../../../shared/schemas/responses.js';
import type { SourceInput } from '../../../shared/schemas/common.js';
import type { Response, Source } from '../../../shared/types.js';
import { prefix } from '../../../shared/rules/truncate.js';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import { keepsVersion } from '../../../shared/rules/edit-history.js';
import { badRequest, conflict, notFound } from '../../../shared/errors.js';
import { assertOwner, assertParentInTopic } from '../../../shared/rules/ownership.js';
import { liveTopic, nowIso, publish, type DomainContext } from './context.js';
import { mayNotify, notify } from './notify.js';
import { followOnJoin, notifyFollowers } from './follows.js';
import { notifyMentions } from './mentions.js';
import type { Change } from './change-feed.js';
import { refreshPersuasion } from './stances.js';
import { checkResponseLinks, checkResponseRepeats } from './limits.js';
import { rewriteNotificationCopies } from './notification-copies.js';
import { assertNotLocked, assertNotModerated, assertNotSuspended } from './moderation-rules.js';
import { type MappingsPageJson, type ResponsePageText, type ResponsePosition, type ResponseRow, toResponse } from '../store/rows.js';
import { nextTurn, readInTurns, ROWS_PER_TURN, stringifyInTurns } from './turns.js';

export type { ResponsePageText } from '../store/rows.js';

/** Kept answers are UTF-8 bytes, encoded once. */
const JSON_BYTES = new TextEncoder();

const SEARCH_LIMIT = 20;

async function present(ctx: DomainContext, row: ResponseRow): Promise<Response> {
  const sources = await ctx.store.sources.forResponse(row.id);
  const versions = await ctx.store.responses.versionsOf([row.id]);
  return toResponse(row, sources, versions.get(row.id));
}

/** A list of rows with all their citations, and all their earlier versions, read in one query each (no query per row). */
export async function presentAll(ctx: DomainContext, rows: ResponseRow[]): Promise<Response[]> {
  const ids = rows.map((row) => row.id);
  const sources = await ctx.store.sources.forResponses(ids);
  const versions = await ctx.store.responses.versionsOf(ids);
  return rows.map((row) => toResponse(row, sources.get(row.id) ?? [], versions.get(row.id)));
}

/** presentAll a few hundred rows at a time, with a turn between each (turns.ts): a page of 1,000 roots is long work. */
async function presentInTurns(ctx: DomainContext, rows: ResponseRow[]): Promise<Response[]> {
  const items: Response[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_TURN) {
    if (start > 0) await nextTurn();
    for (const item of await presentAll(ctx, rows.slice(start, start + ROWS_PER_TURN))) items.push(item);
  }
  return items;
}

const positionOf = (row: { created_at: string; id: string }): ResponsePosition => ({ created_at: row.created_at, id: row.id });

/** At most `limit` of a topic's roots after `after`, read in sub-pages with a turn between each (turns.ts). */
function rootRowsInTurns(ctx: DomainContext, topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number) {
  return readInTurns<ResponseRow, ResponsePosition | null>(
    (from, n) => ctx.store.responses.rootsPage(topicId, viewer, from, n),
    positionOf,
    after,
    limit,
  );
}

async function liveResponse(ctx: DomainContext, id: string, viewer: string | null) {
  const row = await ctx.store.responses.get(id, viewer);
  if (!row || row.deleted) throw notFound(MSG.responseNotFound);
  return row;
}

export async function getResponse(ctx: DomainContext, id: string, viewer: string | null): Promise<Response> {
  return present(ctx, await liveResponse(ctx, id, viewer));
}

export async function rootResponses(ctx: DomainContext, topicId: string, viewer: string | null): Promise<Response[]> {
  await liveTopic(ctx, topicId);
  return presentAll(ctx, await ctx.store.responses.roots(topicId, viewer));
}

export async function replies(ctx: DomainContext, parentId: string, viewer: string | null): Promise<Response[]> {
  await liveResponse(ctx, parentId, viewer);
  return presentAll(ctx, await ctx.store.responses.replies(parentId, viewer));
}

/** A page of a list: its items and, when more follow, where the next page starts. */
export interface ResponsePage {
  items: Response[];
  next: ResponsePosition | null;
}

async function page(ctx: DomainContext, rows: ResponseRow[], limit: number): Promise<ResponsePage> {
  const items = await presentInTurns(ctx, rows.slice(0, limit));
  const last = rows.length > limit ? rows[limit - 1]! : null;
  return { items, next: last ? { created_at: last.created_at, id: last.id } : null };
}

/** At most `limit` of a topic's roots after `after` (rootResponses, paged). */
export async function rootResponsesPage(
  ctx: DomainContext,
  topicId: string,
  viewer: string | null,
  after: ResponsePosition | null,
  limit: number,
): Promise<ResponsePage> {
  await liveTopic(ctx, topicId);
  return page(ctx, await rootRowsInTurns(ctx, topicId, viewer, after, limit + 1), limit);
}

/**
 * How many signed-out pages of roots are kept, and their bytes at most: a page of 1,000 short responses
 * is about 650 KB, of 1,000 of the longest (10,000 characters) ten times that.
 */
const ROOT_PAGES_KEPT = 16;
const ROOT_PAGES_BYTES = 32 * 1024 * 1024;
/** Per store (a test opens several): signed-out pages of roots by (topic, cursor, limit), with the topic's version they were read at. */
const rootPages = new WeakMap<object, Map<string, ResponsePageText & { version: number }>>();

/**
 * rootResponsesPage as the text the route answers. A signed-out reader's page (the same for every
 * such reader: no upvote of theirs to show) is serialised once and kept until the topic's responses
 * change (a 23,000-root topic's first page of 1,000 cost 15-20 ms of queries and stringify
 * per request, seconds at p99 under 50 connections). The topic's version is read first, outside any
 * transaction, as the topic list's page cache does: a page read after a newer write is only
 * kept under the older version, and the next request reads it again.
 */
export async function rootResponsesPageText(
  ctx: DomainContext,
  topicId: string,
  viewer: string | null,
  after: ResponsePosition | null,
  limit: number,
): Promise<ResponsePageText> {
  await liveTopic(ctx, topicId);
  if (viewer !== null) return rootsText(ctx, topicId, viewer, after, limit);
  const version = await ctx.store.responses.topicVersion(topicId);
  let pages = rootPages.get(ctx.store);
  if (!pages) rootPages.set(ctx.store, (pages = new Map()));
  const key = JSON.stringify([topicId, after?.created_at ?? null, after?.id ?? null, limit]);
  const kept = pages.get(key);
  if (kept && kept.version === version) return kept;
  const answer = { ...(await rootsText(ctx, topicId, null, after, limit)), version };
  if (!kept || kept.version < version) {
    pages.delete(key);
    pages.set(key, answer);
    let bytes = 0;
    for (const entry of pages.values()) bytes += entry.json.byteLength;
    // The oldest go first; the page just read is answered even when it alone is over the budget.
    for (const [oldest, entry] of pages) {
      if (pages.size <= ROOT_PAGES_KEPT && bytes <= ROOT_PAGES_BYTES) break;
      pages.delete(oldest);
      bytes -= entry.json.byteLength;
    }
  }
  return answer;
}

/** A page of roots as the route answers it: the database's own JSON where it makes it, else the rows serialised. */
async function rootsText(ctx: DomainContext, topicId: string, viewer: string | null, after: ResponsePosition | null, limit: number) {
  const made = await ctx.store.responses.rootsPageJson(topicId, viewer, after, limit);
  if (made) return made;
  const found = await page(ctx, await rootRowsInTurns(ctx, topicId, viewer, after, limit + 1), limit);
  return { json: JSON_BYTES.encode(await stringifyInTurns(found.items)), next: found.next };
}

/** repliesPage as the text the route answers (rootsText's way). */
export async function repliesPageText(
  ctx: DomainContext,
  parentId: string,
  viewer: string | null,
  after: ResponsePosition | null,
  limit: number,
): Promise<ResponsePageText> {
  await liveResponse(ctx, parentId, viewer);
  const made = await ctx.store.responses.repliesPageJson(parentId, viewer, after, limit);
  if (made) return made;
  const found = await page(ctx, await ctx.store.responses.repliesPage(parentId, viewer, after, limit + 1), limit);
  return { json: JSON_BYTES.encode(await stringifyInTurns(found.items)), next: found.next };
}

/** A page of the topic's (id, parent) pairs in the REST shape, serialised, after a position. */
export async function mappingsPage(
  ctx: DomainContext,
  topicId: string,
  after: ResponsePosition | null,
  limit: number,
): Promise<MappingsPageJson> {
  await liveTopic(ctx, topicId);
  // One walk of responses_topic_order (migration 022), which holds the topic's pairs in this order.
  return ctx.store.responses.mappingsPage(topicId, after, limit);
}

export async function searchResponses(ctx: DomainContext, topicId: string, text: string, viewer: string | null): Promise<Response[]> {
  await liveTopic(ctx, topicId);
  const match = ftsQuery(text);
  if (match === null) return [];
  return presentAll(ctx, await ctx.store.responses.search(topicId, match, SEARCH_LIMIT, viewer));
}

/** The quote must exist, live in the same topic and not be the response itself. */
async function checkQuote(ctx: DomainContext, quotedId: string | null | undefined, topicId: string, selfId: string) {
  if (quotedId == null) return null;
  if (quotedId === selfId) throw badRequest(MSG.quoteSelf);
  const quoted = await ctx.store.responses.get(quotedId, null);
  if (!quoted || quoted.deleted) throw badRequest(MSG.quoteNotFound);
  if (quoted.topic_id !== topicId) throw badRequest(MSG.quoteOtherTopic);
  return quotedId;
}

/** The response's citations as its author gave them; the shared catalogue only gains a row per new URL. */
async function saveSources(ctx: DomainContext, responseId: string, sources: SourceInput[] | undefined) {
  const seen = new Set<string>();
  const citations: { sourceId: string; name: string | null; description: string | null }[] = [];
  for (const source of sources ?? []) {
    if (seen.has(source.url)) continue; // the composer removes by URL, so a URL appears once
    seen.add(source.url);
    const entry = await ctx.store.sources.ensure(source, ctx.newId, nowIso(ctx));
    citations.push({ sourceId: entry.id, name: source.name || null, description: source.description || null });
  }
  await ctx.store.sources.setForResponse(responseId, citations);
}

/** Whether saving `next` (as saveSources would) gives other citations than `current`, in order. */
function sourcesChanged(current: readonly Source[], next: readonly SourceInput[]): boolean {
  const key = (source: { url: string; name?: string | null; description?: string | null }) =>
    JSON.stringify([source.url, source.name || null, source.description || null]);
  const seen = new Set<string>();
  const wanted = next.filter((source) => !seen.has(source.url) && seen.add(source.url)).map(key);
  return wanted.length !== current.length || wanted.some((entry, index) => entry !== key(current[index]!));
}

export async function createResponse(ctx: DomainContext, actor: AuthUser, input: CreateResponseInput): Promise<Response> {
  const id = await ctx.store.transaction(() => addResponse(ctx, actor, input));
  return getResponse(ctx, id, actor.uid);
}

/**
 * The create itself (its rules, writes, notifications and follows), inside the caller's
 * transaction: createResponse's own, or a sync push row's savepoint, which reads the stored row
 * back itself (as addTopic: no second savepoint and no read-back per pushed row).
 * Its changes are published when that transaction commits. Answers the response's id.
 */
export async function addResponse(
  ctx: DomainContext,
  actor: AuthUser,
  input: CreateResponseInput,
  /** `absent`: the caller has just read, in this transaction, that no response has the id (a sync push's master). */
  known: { absent?: boolean } = {},
): Promise<string> {
  const { store } = ctx;
  const id = input.id ?? ctx.newId();
  const existing = known.absent ? undefined : await store.responses.get(id, null);
  if (existing) {
    // A retried create (same author, same id) answers with what landed the first time.
    if (existing.creator_uid === actor.uid && !existing.deleted) return id;
    throw conflict(MSG.idTaken);
  }
  const author = await assertNotSuspended(ctx, actor.uid);
  let parent: ResponseRow | undefined;
  if (input.parent_response_id != null) {
    parent = await liveResponse(ctx, input.parent_response_id, null);
    assertParentInTopic(parent, input.topic_id);
  }
  const topic = await liveTopic(ctx, parent?.topic_id ?? input.topic_id!);
  assertNotLocked(topic);
  // After the retry check above: a retried create answers as before and does not count itself.
  await checkResponseLinks(ctx, actor, input.content, input.sources ?? []);
  await checkResponseRepeats(ctx, actor, input.content);
  const now = nowIso(ctx);
  await store.responses.insert({
    id,
    topic_id: topic.id,
    parent_response_id: parent?.id ?? null,
    quoted_response_id: await checkQuote(ctx, input.quoted_response_id, topic.id, id),
    type: input.type,
    content: input.content,
    creator_uid: actor.uid,
    created_at: now,
    seq: await store.nextSeq(),
  });
  // A new response has no citations yet: with none given there is nothing to save (two statements fewer per create).
  if (input.sources?.length) await saveSources(ctx, id, input.sources);
  // Maintained counters (O(1) in the topic's size, equal to a recount).
  if (parent) await store.responses.addToCounts(parent.id, { comments: 1 }, await store.nextSeq());
  await store.topics.addToCounts(topic.id, { responses: { [input.type]: 1 } }, await store.nextSeq());
  // Mentions first: the reply's recipient, when named, is told once, as named.
  const mentions = await notifyMentions(ctx, actor, { id, topic_id: topic.id, content: input.content }, now);
  const changes = await notifyReply(ctx, actor, id, parent, topic, now, mentions.told);
  changes.push(...mentions.changes);
  // After the reply's and the mentions' notifications, which it never repeats: followers hear of
  // root responses only (a nested reply notifies whom it answers).
  if (!parent) changes.push(...(await notifyFollowers(ctx, actor, id, topic, now)));
  changes.push(...(await followOnJoin(ctx, actor.uid, topic.id, { user: author })));
  publish(ctx, changes);
  return id;
}

/** Tell the author of the answered topic or response, never yourself, nor someone who blocked you. */
async function notifyReply(
  ctx: DomainContext,
  actor: AuthUser,
  responseId: string,
  parent: ResponseRow | undefined,
  topic: { id: string; title: string; creator_uid: string },
  now: string,
  /** Told of this response already, as named in it. */
  named: ReadonlySet<string>,
): Promise<Change[]> {
  const recipient = parent ? parent.creator_uid : topic.creator_uid;
  const changes: Change[] = [{ collection: 'topics' }, { collection: 'responses', topicId: topic.id, votesKept: true }];
  if (!named.has(recipient) && (await mayNotify(ctx, actor.uid, recipient, now)))
    changes.push(
      await notify(ctx, {
        recipient_uid: recipient,
        type: parent ? 'reply_to_comment' : 'reply_to_topic',
        actor_uid: actor.uid,
        target_summary: prefix(parent ? parent.content : topic.title, NOTIFICATION_SUMMARY_CHARS),
        target_id: topic.id,
        response_id: responseId,
        created_at: now,
      }),
    );
  return changes;
}

export async function updateResponse(ctx: DomainContext, actor: AuthUser, id: string, input: UpdateResponseInput): Promise<Response> {
  const { store } = ctx;
  const { row, mentions } = await store.transaction(async () => {
    const row = await liveResponse(ctx, id, null);
    assertOwner(row, actor.uid, MSG.notYourResponse);
    assertNotModerated(row);
    await assertNotSuspended(ctx, actor.uid);
    // Sources left out stay as they are: they count with the (maybe new) text.
    await checkResponseLinks(ctx, actor, input.content, input.sources ?? (await store.sources.forResponse(id)));
    await checkResponseRepeats(ctx, actor, input.content, row.content);
    // Omitted means unchanged, as for sources; null removes the quote.
    const quotedId =
      input.quoted_response_id === undefined ? row.quoted_response_id : await checkQuote(ctx, input.quoted_response_id, row.topic_id, id);
    const now = nowIso(ctx);
    // The "edited" mark moves only when what readers see changes: a sync push resends the
    // whole document, so an unchanged one (or a retried push) must not mark the response edited.
    const edited =
      input.content !== row.content ||
      quotedId !== row.quoted_response_id ||
      (input.sources !== undefined && sourcesChanged(await store.sources.forResponse(id), input.sources));
    // The text it replaces is kept as a version, unless the edit comes within the grace period
    // after posting (an early fix folds into the first version). Quote and sources are not versioned.
    if (input.content !== row.content && keepsVersion(row.created_at, now)) {
      await store.responses.keepVersion(id, row.content, row.edited_at ?? row.created_at);
    }
    await store.responses.update({
      id,
      content: input.content,
      quoted_response_id: quotedId,
      updated_at: now,
      edited_at: edited ? now : row.edited_at,
      seq: await store.nextSeq(),
    });
    if (input.sources !== undefined) await saveSources(ctx, id, input.sources);
    // Only the people the edit newly names are told.
    const mentions =
      input.content === row.content ? [] : (await notifyMentions(ctx, actor, { ...row, content: input.content }, now, row.content)).changes;
    return { row, mentions };
  });
  publish(ctx, [{ collection: 'responses', topicId: row.topic_id, votesKept: true }, ...mentions]);
  return getResponse(ctx, id, actor.uid);
}

export async function deleteResponse(ctx: DomainContext, actor: AuthUser, id: string): Promise<void> {
  const { store } = ctx;
  const changes = await store.transaction(async () => {
    const row = await liveResponse(ctx, id, null);
    assertOwner(row, actor.uid, MSG.notYourResponse);
    const changes: Change[] = [{ collection: 'topics' }, { collection: 'responses', topicId: row.topic_id }];
    // Points each author loses: the removed votes by others on their responses.
    const credited = new Map<string, number>();
    // Δ credits on the removed responses no longer count (as their votes): their authors' persuasion points are recounted.
    const persuaded = new Set<string>();
    const nodes = await store.responses.subtree(id);
    for (const node of nodes) {
      for (const author of await store.stances.authorsCreditedOn(node.id)) persuaded.add(author);
      for (const vote of await store.votes.removeAllOn('response', node.id, store.nextSeq)) {
        if (vote.value === VOTE_VALUES.agree && vote.voter_uid !== vote.target_creator_uid) {
          credited.set(vote.target_creator_uid, (credited.get(vote.target_creator_uid) ?? 0) - 1);
        }
        changes.push({ collection: 'votes', uid: vote.voter_uid });
      }
      // Before the row goes: the replies to it are still live, and their excerpts copy its words.
      changes.push(...(await rewriteNotificationCopies(ctx, 'response', node.id, MSG.deletedByAuthor)));
      await store.responses.softDelete(node.id, await store.nextSeq());
      for (const uid of await store.notifications.markResponseDeleted(node.id, store.nextSeq)) {
        changes.push({ collection: 'notifications', uid });
      }
    }
    for (const [uid, delta] of credited) {
      if (await store.users.addPoints(uid, delta, store.nextSeq)) changes.push({ collection: 'profile', uid });
    }
    for (const uid of persuaded) changes.push(...(await refreshPersuasion(ctx, uid)));
    if (row.parent_response_id) await store.responses.addToCounts(row.parent_response_id, { comments: -1 }, await store.nextSeq());
    const topic = await liveTopic(ctx, row.topic_id);
    const removed: Partial<Record<ResponseType, number>> = {};
    for (const node of nodes) removed[node.type] = (removed[node.type] ?? 0) - 1;
    await store.topics.addToCounts(topic.id, { responses: removed }, await store.nextSeq());
    return changes;
  });
  publish(ctx, changes);
}
