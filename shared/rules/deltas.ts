// "This changed my view" (Δ, issue 13 #2): the rules for crediting responses, stated once. The app
// checks them before a credit enters the outbox; the server's domain enforces them for REST and push.
import { MAX_DELTAS_PER_CHANGE, PERSUASION_POINTS_PER_DELTA } from '../constants.js';
import { badRequest, forbidden, notFound, type CruxError } from '../errors.js';
import { MSG } from '../messages.js';

/** A credited response as the rule needs it (undefined: unknown or deleted). */
export interface CreditTarget {
  topic_id: string;
  creator_uid: string;
}

/**
 * Why these credits cannot be given for the latest change of this user's stance on the topic, or
 * null. `changes` is how many times the stance has changed (history length − 1).
 */
export function creditProblem(
  credits: readonly string[],
  context: { uid: string; topicId: string; changes: number; target: (responseId: string) => CreditTarget | undefined },
): CruxError | null {
  if (credits.length === 0) return null;
  if (context.changes < 1) return badRequest(MSG.deltaBeforeChange);
  if (new Set(credits).size !== credits.length || credits.length > MAX_DELTAS_PER_CHANGE) return badRequest(MSG.deltaTooMany);
  for (const id of credits) {
    const target = context.target(id);
    if (!target) return notFound(MSG.responseNotFound);
    if (target.topic_id !== context.topicId) return badRequest(MSG.deltaOtherTopic);
    if (target.creator_uid === context.uid) return forbidden(MSG.deltaOwnResponse);
  }
  return null;
}

/** Persuasion points for a number of Δ credits received. */
export const persuasionPoints = (deltas: number): number => Math.max(0, deltas) * PERSUASION_POINTS_PER_DELTA;

/** Whether a user's stance history counts as a changed mind: the current stance is not the first. */
export const mindChanged = (first: string, current: string): boolean => first !== current;
