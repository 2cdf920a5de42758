// Topic operations: list, read, create (idempotent by client id), delete with cascade.
import type { AuthUser } from '../auth/verifier.js';
import { VOTE_VALUES } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import type { CreateTopicInput, ListTopicsQuery } from '../../../shared/schemas/topics.js';
import type { Topic } from '../../../shared/types.js';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import { conflict } from '../../../shared/errors.js';
import { assertOwner } from '../../../shared/rules/ownership.js';
import { liveTopic, nowIso, publish, type DomainContext } from './context.js';
import type { Change } from './change-feed.js';
import { refreshPersuasion } from './stances.js';
import { checkTopicLimits } from './limits.js';
import { assertNotSuspended } from './moderation-rules.js';
import { followOnJoin } from './follows.js';
import { toTopic } from '../store/rows.js';
import { createPageCache, LIST_PAGES_KEPT, type PageCache } from '../store/page-cache.js';

export async function listTopics(ctx: DomainContext, query: ListTopicsQuery, viewer: string | null): Promise<Topic[]> {
  const { store } = ctx;
  if (query.search !== undefined) {
    const match = ftsQuery(query.search);
    if (match === null) return [];
    return (await store.topics.search({ ...query, match, viewer })).map(toTopic);
  }
  return (await store.topics.list({ ...query, viewer })).map(toTopic);
}

/** Per store (a test opens several): the list and search pages as the JSON bytes they answer. */
const topicPages = new WeakMap<object, PageCache<Uint8Array<ArrayBuffer>>>();
const JSON_BYTES = new TextEncoder();

/**
 * GET /api/topics as the JSON bytes it answers, serialised once per change of the topics and kept
 * until the next (turning the kept rows into topics and JSON on every request was a
 * sixth of the hot list's time). The topics' version is read first, outside any transaction, as
 * the store's own page cache does (store/page-cache.ts), so a kept page is never older than it.
 */
export async function listTopicsJson(ctx: DomainContext, query: ListTopicsQuery, viewer: string | null): Promise<Uint8Array<ArrayBuffer>> {
  let pages = topicPages.get(ctx.store);
  if (!pages) topicPages.set(ctx.store, (pages = createPageCache<Uint8Array<ArrayBuffer>>(LIST_PAGES_KEPT)));
  const version = await ctx.store.topics.listVersion();
  const key = topicsPageKey(query, viewer);
  const kept = pages.read(version, key)?.[0];
  if (kept) return kept;
  // UTF-8 bytes, encoded once (a kept string would be encoded again on every send).
  const json = JSON_BYTES.encode(await topicsPageText(ctx, query, viewer));
  pages.keep(version, key, [json]);
  return json;
}

/** A page's JSON text: a search's as the store writes it when it can (SQLite's title index), else stringified here. */
async function topicsPageText(ctx: DomainContext, query: ListTopicsQuery, viewer: string | null): Promise<string> {
  const match = query.search === undefined ? null : ftsQuery(query.search);
  const written = match !== null ? await ctx.store.topics.searchJson?.({ ...query, match, viewer }) : undefined;
  return written ?? JSON.stringify(await listTopics(ctx, query, viewer));
}

/** Which kept page answers a query for a viewer (listTopicsJson, keptTopicsJson). */
export const topicsPageKey = (query: ListTopicsQuery, viewer: string | null) =>
  JSON.stringify([query.search ?? null, query.sort, query.category ?? null, query.limit, query.offset, viewer]);

/**
 * listTopicsJson's answer for a page (topicsPageKey) when it is at hand without waiting: the
 * topics' version known in memory (SQLite: store/sqlite/kept-versions.ts) and the page kept at
 * it; else undefined (await listTopicsJson). http/fast-reads.ts answers most reads from here.
 */
export function keptTopicsJson(ctx: DomainContext, key: string): Uint8Array<ArrayBuffer> | undefined {
  const pages = topicPages.get(ctx.store);
  const version = pages && ctx.store.versions?.listVersionNow();
  return version === undefined ? undefined : pages!.read(version, key)?.[0];
}

export async function getTopic(ctx: DomainContext, id: string, viewer: string | null): Promise<Topic> {
  return toTopic(await liveTopic(ctx, id, viewer));
}

/** Signed-out answers of GET /api/topics/{id} kept between two topic changes (each topic's JSON bytes). */
const topicAnswers = new WeakMap<object, PageCache<Uint8Array<ArrayBuffer>>>();
/** How many topics' answers are kept at one version: the most read ones between two changes. */
const TOPIC_ANSWERS_KEPT = 2_000;

/**
 * GET /api/topics/{id} as the JSON bytes it answers. A signed-out reader's answer is the same for
 * everyone until a topic changes (the topics' version, as the list's pages: listTopicsJson), so it is
 * serialised once per version and kept; a signed-in reader's carries their own vote and is made each time.
 */
export async function getTopicJson(ctx: DomainContext, id: string, viewer: string | null): Promise<Uint8Array<ArrayBuffer>> {
  if (viewer !== null) return JSON_BYTES.encode(JSON.stringify(await getTopic(ctx, id, viewer)));
  let answers = topicAnswers.get(ctx.store);
  if (!answers) topicAnswers.set(ctx.store, (answers = createPageCache<Uint8Array<ArrayBuffer>>(TOPIC_ANSWERS_KEPT)));
  const version = await ctx.store.topics.listVersion();
  const kept = answers.read(version, id)?.[0];
  if (kept) return kept;
  const json = JSON_BYTES.encode(JSON.stringify(await getTopic(ctx, id, null)));
  answers.keep(version, id, [json]);
  return json;
}

/** getTopicJson's signed-out answer when it is at hand without waiting (as keptTopicsJson), else undefined. */
export function keptTopicJson(ctx: DomainContext, id: string): Uint8Array<ArrayBuffer> | undefined {
  const answers = topicAnswers.get(ctx.store);
  const version = answers && ctx.store.versions?.listVersionNow();
  return version === undefined ? undefined : answers!.read(version, id)?.[0];
}

export async function createTopic(ctx: DomainContext, actor: AuthUser, input: CreateTopicInput): Promise<Topic> {
  const id = await ctx.store.transaction(() => addTopic(ctx, actor, input));
  return getTopic(ctx, id, actor.uid);
}

/**
 * The create itself (its rules and writes), inside the caller's transaction: createTopic's own,
 * or a sync push row's savepoint, which reads the stored row back itself (no second
 * savepoint and no read-back per pushed row). Answers the topic's id.
 */
export async function addTopic(ctx: DomainContext, actor: AuthUser, input: CreateTopicInput): Promise<string> {
  const { store } = ctx;
  const id = input.id ?? ctx.newId();
  const existing = await store.topics.get(id, actor.uid);
  if (existing) {
    // A retried create (same author, same id) answers with what landed the first time.
    if (existing.creator_uid === actor.uid && !existing.deleted) return id;
    throw conflict(MSG.idTaken);
  }
  const author = await assertNotSuspended(ctx, actor.uid);
  // After the retry check: a retried create answers as before and does not count itself.
  await checkTopicLimits(ctx, actor, input.title);
  await store.topics.insert({
    id,
    title: input.title,
    category: input.categories[0]!,
    creator_uid: actor.uid,
    created_at: nowIso(ctx),
    seq: await store.nextSeq(),
  });
  publish(ctx, [{ collection: 'topics' }, ...(await followOnJoin(ctx, actor.uid, id, { user: author }))]);
  return id;
}

export async function deleteTopic(ctx: DomainContext, actor: AuthUser, id: string): Promise<void> {
  const { store } = ctx;
  const changes: Change[] = [{ collection: 'topics' }, { collection: 'responses', topicId: id }];
  await store.transaction(async () => {
    const topic = await liveTopic(ctx, id);
    assertOwner(topic, actor.uid, MSG.notYourTopic);
    // Points each author loses: the removed votes by others on their topic and responses.
    const creditedUsers = new Map<string, number>();
    const voters = new Set<string>();
    const removeVotes = async (type: 'topic' | 'response', targetId: string) => {
      for (const vote of await store.votes.removeAllOn(type, targetId, store.nextSeq)) {
        if (vote.value === VOTE_VALUES.agree && vote.voter_uid !== vote.target_creator_uid) {
          creditedUsers.set(vote.target_creator_uid, (creditedUsers.get(vote.target_creator_uid) ?? 0) - 1);
        }
        voters.add(vote.voter_uid);
      }
    };
    const persuaded = new Set<string>();
    for (const responseId of await store.responses.liveIdsOfTopic(id)) {
      await removeVotes('response', responseId);
      for (const author of await store.stances.authorsCreditedOn(responseId)) persuaded.add(author);
      await store.responses.softDelete(responseId, await store.nextSeq());
    }
    await removeVotes('topic', id);
    for (const uid of await store.notifications.removeForTopic(id, store.nextSeq)) {
      changes.push({ collection: 'notifications', uid });
    }
    await store.topics.softDelete(id, await store.nextSeq());
    for (const [uid, delta] of creditedUsers) {
      if (await store.users.addPoints(uid, delta, store.nextSeq)) changes.push({ collection: 'profile', uid });
    }
    // Δ credits on the removed responses no longer count: their authors' persuasion points are recounted.
    for (const uid of persuaded) changes.push(...(await refreshPersuasion(ctx, uid)));
    for (const uid of voters) changes.push({ collection: 'votes', uid });
  });
  publish(ctx, changes);
}
