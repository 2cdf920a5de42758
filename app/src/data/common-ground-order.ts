// The topic page's "Common ground" order: roots with the highest common-ground score
// first (shared/rules/common-ground.ts), the topic's agree and disagree participants as each side's
// denominators and each response's upvotes by side; ties keep the default order (oldest first).
// One pass over the roots the tree already built: no query or subscription per response.
import { commonGroundScore, sidesOfResponse } from '../../../shared/rules/common-ground.js';
import type { ResponseView } from './api.js';

/** Each side's participants: the topic's stance_agree and stance_disagree. */
export interface Sides {
  agree: number;
  disagree: number;
}

/**
 * `roots` (in the default order) reordered by common-ground score, best first. The sort is stable,
 * so equal scores keep the default order, as the server's ORDER BY score DESC, created_at, id does.
 */
export function commonGroundOrder(roots: readonly ResponseView[], sides: Sides): ResponseView[] {
  const scored = roots.map((view, index) => ({
    view,
    index,
    score: commonGroundScore(...sidesOfResponse(view, sides)),
  }));
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((row) => row.view);
}

/**
 * A reorderer that gives back its previous array when neither the roots nor the sides changed, so
 * a memoised list does not re-render on an emission that moved nothing it shows.
 */
export function createCommonGroundOrderer() {
  let last: { roots: readonly ResponseView[]; sides: Sides; ordered: ResponseView[] } | null = null;
  return (roots: readonly ResponseView[], sides: Sides): ResponseView[] => {
    if (last && last.roots === roots && last.sides.agree === sides.agree && last.sides.disagree === sides.disagree) return last.ordered;
    const ordered = commonGroundOrder(roots, sides);
    const same = last !== null && last.ordered.length === ordered.length && last.ordered.every((view, i) => view === ordered[i]);
    last = { roots, sides, ordered: same ? last!.ordered : ordered };
    return last.ordered;
  };
}
