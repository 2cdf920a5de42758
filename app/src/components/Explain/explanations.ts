// What the ideas beyond a forum mean, in one place: the `title` tooltips and the
// visible explanations (Explain) read the same words.
import { PERSUASION_POINTS_PER_DELTA } from '../../../../shared/constants';

/** Δ: a response credited with changing someone's mind. */
export const DELTA_EXPLAINED =
  'Δ (delta) marks a response that changed someone’s mind: people who change their stance on the question can credit the responses that did it with “This changed my view”.';

/** The badge and the order on a topic's responses. */
export const COMMON_GROUND_EXPLAINED =
  'Approved by people on both sides: many who agree and many who disagree with the question upvoted it, and few on either side disagreed with it (a disagree cancels an upvote from the same side). A reading of votes, not a verdict: a few votes prove little, and people who took no side count for none.';

/** The bar of participants' stances in a topic's header. */
export const STANCE_BAR_EXPLAINED =
  'Where the people taking part stand on the question: each records Agree, Disagree or Unsure, and can change it after reading the arguments.';

/** What persuasion points count (leaderboard column and user page). */
export const PERSUASION_EXPLAINED = `Points earned when people credit a response with changing their view (${PERSUASION_POINTS_PER_DELTA} per Δ); part of the points.`;

/** The strongest case on each side at the top of a topic (docs/COMMON-GROUND.md). */
export const STRONGEST_CASE_EXPLAINED =
  'The arguments most approved by their own side (those who agree, for an argument for the question; those who disagree, for one against), less the disagree votes of that same side, with a bonus when the other side upvoted them too. Not the raw score: a few votes count for little, votes from people who took no side count for none, and an argument few have read yet can be missing.';
