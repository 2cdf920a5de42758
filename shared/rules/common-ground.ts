// Common ground: a response scores high when people on both sides of the topic's
// question approve of it, not when one side piles on. Each upvote counts by the voter's stance at
// the time of the vote; the participants of each side (people who recorded agree or disagree on
// the topic) are the denominators. A response's score is the lower bound of the 95% Wilson score
// interval of its approval among the side that approves it least: a response is only as "common"
// as its weaker side says, and few votes give a low bound. Worked example: docs/COMMON-GROUND.md.

/** z for a two-sided 95% interval. */
export const COMMON_GROUND_Z = 1.96;

/** A score at or above this marks a response with the "common ground" badge: at least 2 of 2 on each side. */
export const COMMON_GROUND_BADGE_THRESHOLD = 0.3;

/** Approval of one response on one side: upvotes from that side, and that side's participants. */
export interface SideApproval {
  upvotes: number;
  participants: number;
}

/**
 * The lower bound of the Wilson score interval for `successes` out of `trials` (0 when there are no
 * trials). Upvotes beyond the participants (a stance changed after the vote) count as all of them.
 */
export function wilsonLowerBound(successes: number, trials: number, z = COMMON_GROUND_Z): number {
  if (!(trials > 0)) return 0;
  const p = Math.min(Math.max(successes, 0), trials) / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

/** The common-ground score of a response: the weaker side's Wilson lower bound of approval. */
export function commonGroundScore(agree: SideApproval, disagree: SideApproval): number {
  return Math.min(wilsonLowerBound(agree.upvotes, agree.participants), wilsonLowerBound(disagree.upvotes, disagree.participants));
}

/** Whether a response shows the "common ground" badge. */
export function isCommonGround(agree: SideApproval, disagree: SideApproval): boolean {
  return commonGroundScore(agree, disagree) >= COMMON_GROUND_BADGE_THRESHOLD;
}

/** Whether a response earns the badge, from its upvotes by side and the topic's participants by side. */
export function hasCommonGround(
  response: { upvotes_agree: number; upvotes_disagree: number },
  participants: { agree: number; disagree: number },
): boolean {
  return isCommonGround(
    { upvotes: response.upvotes_agree, participants: participants.agree },
    { upvotes: response.upvotes_disagree, participants: participants.disagree },
  );
}
