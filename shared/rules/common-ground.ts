// Common ground: a response scores high when people on both sides of the topic's
// question approve of it, not when one side piles on. Each upvote counts by the voter's stance at
// the time of the vote; the participants of each side (people who recorded agree or disagree on
// the topic) are the denominators. A side's approval is its agrees net of its disagrees (a disagree
// cancels an agree of the same side; a pass is "seen, no opinion" and counts as neither). A
// response's score is the lower bound of the 95% Wilson score interval of that net approval among
// the side that approves it least: a response one side disagrees with as much as it agrees is no
// common ground, however much the other side likes it, and few votes give a low bound.
// Worked example: docs/COMMON-GROUND.md.

/** z for a two-sided 95% interval. */
export const COMMON_GROUND_Z = 1.96;

/** A score at or above this marks a response with the "common ground" badge: at least 2 of 2 on each side. */
export const COMMON_GROUND_BADGE_THRESHOLD = 0.3;

/** Approval of one response on one side: agrees (upvotes) and disagrees from that side, and that side's participants. */
export interface SideApproval {
  upvotes: number;
  /** Disagree votes from that side (0 when not known). */
  downvotes?: number;
  participants: number;
}

/** What a side's disagrees leave of its agrees: each disagree cancels one agree, never below 0. */
export function netApprovals(side: SideApproval): number {
  return Math.max(0, side.upvotes - (side.downvotes ?? 0));
}

/** A side's approval of a response: the Wilson lower bound of its net agrees among the side's participants. */
export function sideApproval(side: SideApproval): number {
  return wilsonLowerBound(netApprovals(side), side.participants);
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

/** The common-ground score of a response: the weaker side's Wilson lower bound of net approval. */
export function commonGroundScore(agree: SideApproval, disagree: SideApproval): number {
  return Math.min(sideApproval(agree), sideApproval(disagree));
}

/** Whether a response shows the "common ground" badge. */
export function isCommonGround(agree: SideApproval, disagree: SideApproval): boolean {
  return commonGroundScore(agree, disagree) >= COMMON_GROUND_BADGE_THRESHOLD;
}

/** A response's votes by side of the topic: agrees (upvotes) and, where known, disagrees (downvotes). */
export interface VotesBySide {
  upvotes_agree: number;
  upvotes_disagree: number;
  downvotes_agree?: number;
  downvotes_disagree?: number;
}

/** Both sides' approval of a response, from its votes by side and the topic's participants by side. */
export function sidesOfResponse(response: VotesBySide, participants: { agree: number; disagree: number }): [SideApproval, SideApproval] {
  return [
    { upvotes: response.upvotes_agree, downvotes: response.downvotes_agree ?? 0, participants: participants.agree },
    { upvotes: response.upvotes_disagree, downvotes: response.downvotes_disagree ?? 0, participants: participants.disagree },
  ];
}

/** Whether a response earns the badge, from its votes by side and the topic's participants by side. */
export function hasCommonGround(response: VotesBySide, participants: { agree: number; disagree: number }): boolean {
  return isCommonGround(...sidesOfResponse(response, participants));
}
