// New-account limits and the spam repeat check, applied by the domain's creates
// (topics.ts addTopic, responses.ts createResponse / updateResponse), so REST and sync push both
// meet them. The numbers come from the environment (config.ts readModerationLimits; defaults
// MODERATION_DEFAULTS) through DomainContext.moderation; without it (the demo seed, in-process
// callers) nothing is limited.
//
// An account is new while it is younger than NEW_ACCOUNT_HOURS (users.created_at: when the server
// first saw it) or has 0 points; a moderator or admin never is. A new account may create NEW_USER_TOPICS_PER_DAY topics in 24 h
// (deleted ones count) and cite NEW_USER_LINKS links in one response, its sources and the links its
// formatted text carries counted together (create and edit). Any
// account: the same text posted more than SPAM_REPEATS times within SPAM_WINDOW_MINUTES (topics: the
// title; responses: the content, when created and when edited, through REST or sync push) is
// refused. "The same": equal once normalizedForSpam has taken away what a reader does not see as a
// difference (width, invisible characters, accents, look-alike letters, case, punctuation, a
// trailing counter in a response), so "Buy NOW", " buy  now! ", "buy now 2" and "bυy nоw" (Greek and
// Cyrillic) match.
import { isModerator, MODERATION_DEFAULTS } from '../../../shared/constants.js';
import { badRequest, forbidden } from '../../../shared/errors.js';
import { MSG, newUserLinksMessage, newUserTopicsMessage } from '../../../shared/messages.js';
import { markdownLinks } from '../../../shared/markdown.js';
import type { AuthUser } from '../auth/verifier.js';
import type { DomainContext, ModerationLimits } from './context.js';
import unhomoglyph from 'unhomoglyph';

export type { ModerationLimits } from './context.js';

export const DEFAULT_MODERATION_LIMITS: ModerationLimits = { enabled: true, ...MODERATION_DEFAULTS };

/** The most recent items of one author the spam check compares (far more than the rate limits allow in a window). */
export const SPAM_SCAN_MAX = 500;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A text as the spam check compares it, all but the fold: NFKC (fullwidth and other compatibility
 * forms), format characters dropped (zero-width spaces, soft hyphens: Unicode category Cf), accents
 * and other combining marks stripped, lower-cased, punctuation and symbols made spaces, whitespace
 * runs made one space and, for a response, a trailing counter ("text 2") cut (a topic title's number
 * often names another thing: "Brexit 2"). A text that is nothing but punctuation or a counter keeps
 * the plain form, so "1" and "2" stay apart.
 */
function unfolded(text: string, cutCounter: boolean): string {
  const plain = text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
  const words = plain
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (cutCounter ? words.replace(/( \d+)+$/, '') : words) || plain.replace(/\s+/g, ' ').trim();
}

/** Look-alike letters folded to one form (Unicode's confusables, the unhomoglyph package): Cyrillic "а" and Greek "ο" become Latin. */
const folded = (text: string) => unhomoglyph(text).toLowerCase();

/** What two texts are compared by: `unfolded`, then look-alike letters folded. */
export function normalizedForSpam(text: string, cutCounter = true): string {
  return folded(unfolded(text, cutCounter));
}

/** The number of words: the fold keeps it, so texts that differ in it are never folded (the costly step). */
const wordCount = (text: string) => text.split(' ').length;

const limitsOf = (ctx: DomainContext): ModerationLimits | null => (ctx.moderation?.enabled ? ctx.moderation : null);

/**
 * Younger than NEW_ACCOUNT_HOURS, or without a point (an account the server has not seen yet is
 * new). Moderators and admins never are: someone appointed them.
 */
async function isNewAccount(ctx: DomainContext, limits: ModerationLimits, actor: AuthUser): Promise<boolean> {
  if (isModerator(actor.role)) return false;
  const user = await ctx.store.users.get(actor.uid);
  if (!user || user.points <= 0) return true;
  return ctx.clock().getTime() - Date.parse(user.created_at) < limits.newAccountHours * HOUR_MS;
}

/** Refuses the text when the author already posted it SPAM_REPEATS times within the window. */
async function checkRepeats(
  ctx: DomainContext,
  limits: ModerationLimits,
  text: string,
  cutCounter: boolean,
  recentTexts: (sinceIso: string, limit: number) => Promise<string[]>,
): Promise<void> {
  const since = new Date(ctx.clock().getTime() - limits.spamWindowMinutes * 60_000).toISOString();
  const key = unfolded(text, cutCounter);
  const words = wordCount(key);
  const normalized = folded(key);
  const repeats = (await recentTexts(since, SPAM_SCAN_MAX)).filter((earlier) => {
    const other = unfolded(earlier, cutCounter);
    return wordCount(other) === words && folded(other) === normalized;
  }).length;
  if (repeats >= limits.spamRepeats) throw badRequest(MSG.spamRepeat);
}

/** A new topic's limits: a new account's topics per day (403), then the same title repeated (400). */
export async function checkTopicLimits(ctx: DomainContext, actor: AuthUser, title: string): Promise<void> {
  const limits = limitsOf(ctx);
  if (!limits) return;
  if (await isNewAccount(ctx, limits, actor)) {
    const since = new Date(ctx.clock().getTime() - DAY_MS).toISOString();
    if ((await ctx.store.topics.countCreatedSince(actor.uid, since)) >= limits.newUserTopicsPerDay) {
      throw forbidden(newUserTopicsMessage(limits.newUserTopicsPerDay));
    }
  }
  await checkRepeats(ctx, limits, title, false, (sinceIso, max) => ctx.store.topics.recentTitles(actor.uid, sinceIso, max));
}

/**
 * A new account's links in one response (400): its sources and the links in its text ([text](url),
 * bare addresses, as shared/markdown.ts reads them), counted by distinct address.
 */
export async function checkResponseLinks(
  ctx: DomainContext,
  actor: AuthUser,
  content: string,
  sources: readonly { url: string }[],
): Promise<void> {
  const limits = limitsOf(ctx);
  if (!limits) return;
  const links = new Set([...sources.map((source) => source.url), ...markdownLinks(content)]).size;
  if (links > limits.newUserLinks && (await isNewAccount(ctx, limits, actor))) throw badRequest(newUserLinksMessage(limits.newUserLinks));
}

/**
 * A response's content repeated (400): a new one, or an edit to another text. An edit that leaves
 * the text the same once normalized (a retried sync push, a changed source) is no new repeat.
 */
export async function checkResponseRepeats(ctx: DomainContext, actor: AuthUser, content: string, before?: string): Promise<void> {
  const limits = limitsOf(ctx);
  if (!limits) return;
  if (before !== undefined && normalizedForSpam(before) === normalizedForSpam(content)) return;
  await checkRepeats(ctx, limits, content, true, (sinceIso, max) => ctx.store.responses.recentContents(actor.uid, sinceIso, max));
}

/** No new-account limit and no spam check (MODERATION_LIMITS=off): test servers and benchmarks. */
export const NO_MODERATION_LIMITS: ModerationLimits = { ...DEFAULT_MODERATION_LIMITS, enabled: false };
