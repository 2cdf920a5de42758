// "This changed my view" (Δ): the rules for crediting responses, stated once. The app
// checks them before a credit enters the outbox; the server's domain enforces them for REST and push.
import { MAX_DELTAS_PER_CHANGE, PERSUASION_POINTS_PER_DELTA } from '../constants.js';
import { badRequest, forbidden, notFound, type CruxError } from '../errors.js';
import { MSG } from '../messages.js';

/** A credited response as the rule needs it (undefined: unknown or deleted). */
export interface CreditTarget {
  topic_id: string;
  creator_uid: string;
  /** When the response was written (the server's time); a credit needs it written before the change. */
  created_at?: string;
}

/**
 * Why these credits cannot be given for the latest change of this user's stance on the topic, or
 * null. `changes` is how many times the stance has changed (history length − 1); `changedAt`, when
 * known, is the time of that latest change: only responses written by then can be credited.
 */
export function creditProblem(
  credits: readonly string[],
  context: {
    uid: string;
    topicId: string;
    changes: number;
    changedAt?: string | undefined;
    target: (responseId: string) => CreditTarget | undefined;
  },
): CruxError | null {
  if (credits.length === 0) return null;
  if (context.changes < 1) return badRequest(MSG.deltaBeforeChange);
  if (new Set(credits).size !== credits.length || credits.length > MAX_DELTAS_PER_CHANGE) return badRequest(MSG.deltaTooMany);
  for (const id of credits) {
    const target = context.target(id);
    if (!target) return notFound(MSG.responseNotFound);
    if (target.topic_id !== context.topicId) return badRequest(MSG.deltaOtherTopic);
    if (target.creator_uid === context.uid) return forbidden(MSG.deltaOwnResponse);
    if (context.changedAt && target.created_at && target.created_at > context.changedAt) return badRequest(MSG.deltaAfterChange);
  }
  return null;
}

/**
 * Persuasion points for a number of Δ credits received that count: at most one per creditor and
 * topic for each author, given for a change the server recorded, by a creditor with standing
 * (shared/rules/standing.ts; docs/COMMON-GROUND.md "Persuasion points").
 */
export const persuasionPoints = (deltas: number): number => Math.max(0, deltas) * PERSUASION_POINTS_PER_DELTA;

/** Whether a user's stance history counts as a changed mind: the current stance is not the first. */
export const mindChanged = (first: string, current: string): boolean => first !== current;
