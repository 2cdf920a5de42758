// Users: who the caller is, score and rank, the leaderboard and preferences.
import type { AuthUser } from '../auth/verifier.js';
import { LEADERBOARD_SIZE } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import type { LeaderboardEntry, Preferences, UserProfile, UserScore } from '../../../shared/types.js';
import { truncate } from '../../../shared/rules/truncate.js';
import { competitionRanks } from '../../../shared/rules/rank.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import type { Change } from './change-feed.js';
import { nowIso, publish, type DomainContext } from './context.js';
import { normalizePushSettings, type PushSettings } from '../../../shared/push.js';
import { createPageCache, type PageCache } from '../store/page-cache.js';

/** Kept answers are UTF-8 bytes, encoded once. */
const JSON_BYTES = new TextEncoder();

/**
 * What this process last saw stored for each uid (name and e-mail), per store: a signed-in
 * request with an unchanged name reads nothing. Only rememberUser writes these
 * two fields, so in one process the memory can only be stale towards "differs", which re-reads
 * the row. Several processes on one PostgreSQL database write them too: a rename X→Y
 * through B then Y→X through A would find A's memory still saying X and skip the write. So a
 * uid is forgotten when its profile change arrives on the change feed (from any process), and
 * everything when the feed may have missed changes (EVERYTHING, after a lost LISTEN connection).
 */
const rememberedByStore = new WeakMap<object, Map<string, string>>();
const REMEMBERED_MAX = 10_000;
/** The change feeds whose profile changes already clear a memory. */
const watchedFeeds = new WeakSet<object>();

function watchFeed(ctx: DomainContext, remembered: Map<string, string>): void {
  if (watchedFeeds.has(ctx.changes)) return;
  watchedFeeds.add(ctx.changes);
  ctx.changes.subscribe((changes) => {
    for (const change of changes) {
      if (change.collection === '*') remembered.clear();
      else if (change.collection === 'profile') remembered.delete(change.uid);
    }
  });
}

/** What rememberUser compares: made once per user object (the verifier's verifyNow answers the same object for a known token). */
const rememberKeys = new WeakMap<AuthUser, string>();
function rememberKey(user: AuthUser): string {
  let key = rememberKeys.get(user);
  if (key === undefined) {
    key = JSON.stringify([user.name, user.email, user.emailVerified === true, user.role ?? 'member']);
    rememberKeys.set(user, key);
  }
  return key;
}

/** Whether rememberUser(ctx, user) would do nothing (the stored copy is known to match): http/fast-reads.ts asks without a promise. */
export function rememberedNow(ctx: DomainContext, user: AuthUser): boolean {
  return rememberedByStore.get(ctx.store)?.get(user.uid) === rememberKey(user);
}

/** Keeps the server's copy of the caller's name and e-mail in step with the verified token. */
export async function rememberUser(ctx: DomainContext, user: AuthUser): Promise<void> {
  const { store } = ctx;
  const remembered = rememberedByStore.get(store) ?? new Map<string, string>();
  rememberedByStore.set(store, remembered);
  watchFeed(ctx, remembered);
  const key = rememberKey(user);
  if (remembered.get(user.uid) === key) return;
  const role = user.role ?? 'member';
  const note = () => {
    remembered.delete(user.uid);
    remembered.set(user.uid, key);
    if (remembered.size > REMEMBERED_MAX) remembered.delete(remembered.keys().next().value!);
  };
  // Checked without the write lock (a write transaction starts IMMEDIATE), and again inside it.
  const known = await store.users.get(user.uid);
  // A deleted account's stub: a token still in its last minutes never writes a name or e-mail back.
  if (known?.deleted_at) return;
  if (
    known &&
    known.display_name === user.name &&
    known.email === user.email &&
    known.email_verified === (user.emailVerified ? 1 : 0) &&
    known.role === role
  )
    return note();
  const changes = await store.transaction(async (): Promise<Change[]> => {
    const before = await store.users.get(user.uid);
    if (before?.deleted_at) return [];
    if (!(await store.users.remember(user, nowIso(ctx), store.nextSeq))) return [];
    const changes: Change[] = [{ collection: 'profile', uid: user.uid }];
    // A new display name: the author's topics and responses carry it (joined at read time), so
    // they get a new seq and every device pulls them again with the new name.
    if (before && before.display_name !== user.name) {
      if ((await store.topics.restampCreator(user.uid, await store.nextSeq())) > 0) changes.push({ collection: 'topics' });
      for (const topicId of await store.responses.restampCreator(user.uid, await store.nextSeq())) {
        changes.push({ collection: 'responses', topicId });
      }
      // Whoever blocked them holds their name in a block document: pulled again too.
      for (const blocker of await store.blocks.restampBlocked(user.uid, await store.nextSeq())) {
        changes.push({ collection: 'blocks', uid: blocker });
      }
    }
    return changes;
  });
  // Told first, then noted: this process's own profile change must not forget what it just wrote.
  publish(ctx, changes);
  note();
}

export async function userScore(
  ctx: DomainContext,
  uid: string,
  { persuasion = false }: { persuasion?: boolean } = {},
): Promise<UserScore> {
  const user = await ctx.store.users.get(uid);
  if (!user) throw notFound(MSG.userNotFound);
  const score = { uid, points: user.points, rank: await ctx.store.users.rankFor(user.points) };
  return persuasion ? { ...score, persuasion_points: user.persuasion_points } : score;
}

/** How many topics and responses a user page lists, and how much of each response it shows. */
export const USER_PAGE_ITEMS = 50;
export const USER_PAGE_EXCERPT = 200;
/** Firebase uids are at most 128 characters. */
const UID_MAX = 128;

/** A user's public page: name, points, rank, their newest topics and responses (readable signed out). */
/** How many user pages are kept between two changes of the database. */
const USER_PAGES_KEPT = 500;
/** Per store (a test opens several): the user pages read at the database's current change number. */
const userPages = new WeakMap<object, PageCache<UserProfile>>();

/**
 * GET /api/users/{uid}: the same for every viewer, and the same until the next write anywhere
 * (its points, rank, newest topics and responses all come from stamped rows), so it is kept
 * between two writes: its four reads were most of its cost (p99 28 ms under 50
 * connections, budget 25). The version is read first, outside any transaction, as the topic
 * list's page cache does (store/page-cache.ts).
 */
export async function userProfile(ctx: DomainContext, uid: string): Promise<UserProfile> {
  if (uid.length === 0 || uid.length > UID_MAX || Array.from(uid).some((char) => char.charCodeAt(0) < 0x20)) {
    throw badRequest(`A user id has 1 to ${UID_MAX} characters.`);
  }
  let pages = userPages.get(ctx.store);
  if (!pages) userPages.set(ctx.store, (pages = createPageCache<UserProfile>(USER_PAGES_KEPT)));
  const version = await ctx.store.users.changeNumber();
  const kept = pages.read(version, uid)?.[0];
  if (kept) return kept;
  const profile = await readUserProfile(ctx, uid);
  pages.keep(version, uid, [profile]);
  return profile;
}

async function readUserProfile(ctx: DomainContext, uid: string): Promise<UserProfile> {
  const { users } = ctx.store;
  const user = await users.get(uid);
  if (!user) throw notFound(MSG.userNotFound);
  return {
    uid,
    display_name: user.display_name,
    points: user.points,
    persuasion_points: user.persuasion_points,
    rank: await users.rankFor(user.points),
    role: user.role,
    topics: await users.topicsBy(uid, USER_PAGE_ITEMS),
    responses: (await users.responsesBy(uid, USER_PAGE_ITEMS)).map((response) => ({
      ...response,
      content: truncate(response.content, USER_PAGE_EXCERPT),
    })),
  };
}

/** Per store (a test opens several): the leaderboard's two answers as JSON bytes, at the change number they were read at. */
const leaderboardAnswers = new WeakMap<object, PageCache<Uint8Array<ArrayBuffer>>>();

/**
 * GET /api/users/leaderboard as the JSON bytes it answers, serialised once per change of the
 * database and kept until the next (its query and stringify per request held it to
 * 0.07 of a bare route). Every write of points or of a display name stamps a new seq, so the
 * change number read first (outside any transaction, as userProfile does) names what a kept
 * answer shows.
 */
export async function leaderboardJson(ctx: DomainContext, options: { persuasion?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  let answers = leaderboardAnswers.get(ctx.store);
  if (!answers) leaderboardAnswers.set(ctx.store, (answers = createPageCache<Uint8Array<ArrayBuffer>>(2)));
  const version = await ctx.store.users.changeNumber();
  const key = options.persuasion ? 'persuasion' : 'plain';
  const kept = answers.read(version, key)?.[0];
  if (kept !== undefined) return kept;
  // UTF-8 bytes, encoded once (a kept string would be encoded again on every send).
  const json = JSON_BYTES.encode(JSON.stringify(await leaderboard(ctx, options)));
  answers.keep(version, key, [json]);
  return json;
}

/** leaderboardJson's answer when it is at hand without waiting (as keptTopicsJson, domain/topics.ts); else undefined. */
export function keptLeaderboardJson(ctx: DomainContext, options: { persuasion?: boolean } = {}): Uint8Array<ArrayBuffer> | undefined {
  const answers = leaderboardAnswers.get(ctx.store);
  const version = answers && ctx.store.versions?.changeNumberNow();
  return version === undefined ? undefined : answers!.read(version, options.persuasion ? 'persuasion' : 'plain')?.[0];
}

/**
 * The leaderboard by total points (persuasion points included). The plain REST shape by default;
 * with `persuasion`, each entry also says how many of its points came from Δ credits.
 */
export async function leaderboard(ctx: DomainContext, { persuasion = false }: { persuasion?: boolean } = {}): Promise<LeaderboardEntry[]> {
  const rows = await ctx.store.users.leaderboard(LEADERBOARD_SIZE);
  return competitionRanks(
    rows.map(({ uid, display_name, points, persuasion_points }) =>
      persuasion ? { uid, display_name, points, persuasion_points } : { uid, display_name, points },
    ),
  );
}

export async function preferences(ctx: DomainContext, uid: string): Promise<Preferences> {
  const user = await ctx.store.users.get(uid);
  return { receive_weekly_summary: user ? user.receive_weekly_summary === 1 : true };
}

/** Stores the user's push settings, canonical, with a new seq so their other devices pull them. */
export async function setPushSettings(ctx: DomainContext, uid: string, settings: PushSettings): Promise<void> {
  const { store } = ctx;
  const json = JSON.stringify(normalizePushSettings(settings));
  const changed = await store.transaction(async () => {
    const row = await store.users.get(uid);
    if (!row || row.push_settings === json) return false;
    await store.users.setPushSettings(uid, json, await store.nextSeq());
    return true;
  });
  if (changed) publish(ctx, [{ collection: 'profile', uid }]);
}

export async function setPreferences(ctx: DomainContext, uid: string, input: Preferences): Promise<Preferences> {
  const { store } = ctx;
  await store.transaction(async () => store.users.setWeeklySummary(uid, input.receive_weekly_summary, await store.nextSeq(), nowIso(ctx)));
  publish(ctx, [{ collection: 'profile', uid }]);
  return preferences(ctx, uid);
}
