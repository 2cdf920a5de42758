// New-account limits and the spam repeat check, applied by the domain's creates
// (topics.ts addTopic, responses.ts createResponse / updateResponse), so REST and sync push both
// meet them. The numbers come from the environment (config.ts readModerationLimits; defaults
// MODERATION_DEFAULTS) through DomainContext.moderation; without it (the demo seed, in-process
// callers) nothing is limited.
//
// An account is new while it is younger than NEW_ACCOUNT_HOURS (users.created_at: when the server
// first saw it) or has 0 points; a moderator or admin never is. A new account may create NEW_USER_TOPICS_PER_DAY topics in 24 h
// (deleted ones count) and cite NEW_USER_LINKS sources in one response (create and edit). Any
// account: the same text posted more than SPAM_REPEATS times within SPAM_WINDOW_MINUTES (topics: the
// title; responses: the content, at creation) is refused. "The same": equal once trimmed, runs of
// whitespace made one space and lower-cased (normalizedForSpam), so "Buy NOW" and " buy  now " match.
import { isModerator, MODERATION_DEFAULTS } from '../../../shared/constants.js';
import { badRequest, forbidden } from '../../../shared/errors.js';
import { MSG, newUserLinksMessage, newUserTopicsMessage } from '../../../shared/messages.js';
import type { AuthUser } from '../auth/verifier.js';
import type { DomainContext, ModerationLimits } from './context.js';

export type { ModerationLimits } from './context.js';

export const DEFAULT_MODERATION_LIMITS: ModerationLimits = { enabled: true, ...MODERATION_DEFAULTS };

/** The most recent items of one author the spam check compares (far more than the rate limits allow in a window). */
export const SPAM_SCAN_MAX = 500;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What two texts are compared by: trimmed, whitespace runs made one space, lower-cased. */
export function normalizedForSpam(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

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
  recentTexts: (sinceIso: string, limit: number) => Promise<string[]>,
): Promise<void> {
  const since = new Date(ctx.clock().getTime() - limits.spamWindowMinutes * 60_000).toISOString();
  const normalized = normalizedForSpam(text);
  const repeats = (await recentTexts(since, SPAM_SCAN_MAX)).filter((earlier) => normalizedForSpam(earlier) === normalized).length;
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
  await checkRepeats(ctx, limits, title, (sinceIso, max) => ctx.store.topics.recentTitles(actor.uid, sinceIso, max));
}

/** A new account's sources in one response (400): counted by distinct URL, as they are saved. */
export async function checkResponseLinks(
  ctx: DomainContext,
  actor: AuthUser,
  sources: readonly { url: string }[] | undefined,
): Promise<void> {
  const limits = limitsOf(ctx);
  if (!limits || !sources) return;
  const links = new Set(sources.map((source) => source.url)).size;
  if (links > limits.newUserLinks && (await isNewAccount(ctx, limits, actor))) throw badRequest(newUserLinksMessage(limits.newUserLinks));
}

/** A new response's content repeated (400). */
export async function checkResponseRepeats(ctx: DomainContext, actor: AuthUser, content: string): Promise<void> {
  const limits = limitsOf(ctx);
  if (!limits) return;
  await checkRepeats(ctx, limits, content, (sinceIso, max) => ctx.store.responses.recentContents(actor.uid, sinceIso, max));
}

/** No new-account limit and no spam check (MODERATION_LIMITS=off): test servers and benchmarks. */
export const NO_MODERATION_LIMITS: ModerationLimits = { ...DEFAULT_MODERATION_LIMITS, enabled: false };
