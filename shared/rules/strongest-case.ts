// The strongest case on each side: the three best arguments for the topic's question
// and the three best against, ranked by approval from their own side (its agrees net of its own
// disagrees) plus respect from the other, never by raw score. A pure rule, run on the device's copy (works offline, moves with every vote
// that reaches it). Formula and worked example: docs/COMMON-GROUND.md, "The strongest case on each side".
import type { ResponseType } from '../constants.js';
import { commonGroundScore, sideApproval, sidesOfResponse, type VotesBySide } from './common-ground.js';

/** How many arguments each side shows. */
export const STRONGEST_CASE_SIZE = 3;

/** The two sides of a topic's question an argument can take. */
export type CaseSide = 'for' | 'against';

/** What the rule reads of a response (a ResponseView, a server row...). */
export interface CaseCandidate {
  id: string;
  type: ResponseType;
  parent_response_id: string | null;
  upvotes_agree: number;
  upvotes_disagree: number;
  /** Disagree votes by the voter's stance (0 when not known): a side's own disagrees count against it. */
  downvotes_agree?: number;
  downvotes_disagree?: number;
  /** Net score (upvotes − downvotes): only a tie-break, never the ranking itself. */
  score: number;
  created_at: string;
  /** Removed or hidden by a moderator: never shown as a side's best. */
  moderation?: unknown;
}

/** One ranked argument, with the figures the panel explains it by. */
export interface RankedArgument<T extends CaseCandidate = CaseCandidate> {
  response: T;
  side: CaseSide;
  /** Wilson lower bound of its own side's agrees net of that side's disagrees, among the side's participants. */
  own: number;
  /** The common-ground score: the weaker side's Wilson lower bound (shared/rules/common-ground.ts). */
  commonGround: number;
  /** own + commonGround: what the ranking sorts by. */
  strength: number;
}

export interface StrongestCase<T extends CaseCandidate = CaseCandidate> {
  for: RankedArgument<T>[];
  against: RankedArgument<T>[];
}

const flip = (side: CaseSide): CaseSide => (side === 'for' ? 'against' : 'for');

/**
 * Which side of the topic's question each response argues, by id. A root's type is its side
 * ("Agrees" with the question is `for`). A reply's type is relative to its parent: agreeing keeps
 * the parent's side, disagreeing takes the other, discussing takes none, and a reply under a
 * response with no side (or whose parent is not on this device) has none either.
 */
export function sidesOf(responses: readonly Pick<CaseCandidate, 'id' | 'type' | 'parent_response_id'>[]): Map<string, CaseSide | null> {
  const byId = new Map(responses.map((r) => [r.id, r]));
  const sides = new Map<string, CaseSide | null>();
  const resolve = (start: Pick<CaseCandidate, 'id' | 'type' | 'parent_response_id'>): void => {
    // Walk up to the first response whose side is known, or a root, then back down: no recursion,
    // so a 10,000-deep chain cannot overflow the stack. A cycle (corrupt data) reads as no side.
    const chain: Pick<CaseCandidate, 'id' | 'type' | 'parent_response_id'>[] = [];
    const seen = new Set<string>();
    let side: CaseSide | null = null;
    let at: Pick<CaseCandidate, 'id' | 'type' | 'parent_response_id'> | undefined = start;
    while (at) {
      if (sides.has(at.id)) {
        side = sides.get(at.id)!;
        break;
      }
      if (seen.has(at.id)) break;
      seen.add(at.id);
      if (at.parent_response_id === null) {
        side = at.type === 'neutral' ? null : at.type;
        sides.set(at.id, side);
        break;
      }
      chain.push(at);
      // A parent not on this device leaves the chain without a side.
      at = byId.get(at.parent_response_id);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const r = chain[i]!;
      side = side === null || r.type === 'neutral' ? null : r.type === 'for' ? side : flip(side);
      sides.set(r.id, side);
    }
  };
  for (const r of responses) if (!sides.has(r.id)) resolve(r);
  return sides;
}

/**
 * An argument's strength for its side: the Wilson lower bound of its own side's agrees net of that
 * side's disagrees, among the side's participants (agree for `for`, disagree for `against`), plus its
 * common-ground score as a bonus for respect from the other side. An argument its own side disagrees
 * with as often as it agrees has own = 0 and never ranks. Votes from people who took no side count in
 * neither; passes count in neither either (seen, no opinion).
 */
export function argumentStrength(
  side: CaseSide,
  response: VotesBySide,
  participants: { agree: number; disagree: number },
): { own: number; commonGround: number; strength: number } {
  const [agree, disagree] = sidesOfResponse(response, participants);
  const own = sideApproval(side === 'for' ? agree : disagree);
  const commonGround = commonGroundScore(agree, disagree);
  return { own, commonGround, strength: own + commonGround };
}

/** Best first: strength, then net score, then the older, then the id (a total, stable order). */
function compare(a: RankedArgument, b: RankedArgument): number {
  return (
    b.strength - a.strength ||
    b.response.score - a.response.score ||
    (a.response.created_at < b.response.created_at ? -1 : a.response.created_at > b.response.created_at ? 1 : 0) ||
    (a.response.id < b.response.id ? -1 : a.response.id > b.response.id ? 1 : 0)
  );
}

/** Keeps the `size` best of a stream without sorting it all (10,000 responses, 3 kept). */
function keepBest<T extends CaseCandidate>(best: RankedArgument<T>[], candidate: RankedArgument<T>, size: number) {
  if (best.length === size && compare(candidate, best[size - 1]!) >= 0) return;
  let i = best.length;
  while (i > 0 && compare(candidate, best[i - 1]!) < 0) i--;
  best.splice(i, 0, candidate);
  if (best.length > size) best.pop();
}

/**
 * The `size` strongest arguments on each side of a topic. Only arguments some of their own side
 * approve can rank (strength > 0, so own > 0): a response nobody on its side has upvoted is not its
 * side's best, whatever its score. Moderated responses never rank, nor those `exclude` names (a
 * blocked author's); an excluded response still passes its side on to its replies.
 */
export function strongestCase<T extends CaseCandidate>(
  responses: readonly T[],
  participants: { agree: number; disagree: number },
  size = STRONGEST_CASE_SIZE,
  exclude?: (response: T) => boolean,
): StrongestCase<T> {
  const sides = sidesOf(responses);
  const result: StrongestCase<T> = { for: [], against: [] };
  if (size <= 0) return result;
  for (const response of responses) {
    const side = sides.get(response.id);
    if (!side || response.moderation || exclude?.(response)) continue;
    const figures = argumentStrength(side, response, participants);
    if (!(figures.own > 0)) continue;
    keepBest(result[side], { response, side, ...figures }, size);
  }
  return result;
}
