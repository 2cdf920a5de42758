// Common ground as a pure rule: the worked example of docs/COMMON-GROUND.md, the Wilson bound's known
// values and properties, and the badge threshold.
import { describe, expect, it } from 'vitest';
import {
  COMMON_GROUND_BADGE_THRESHOLD,
  commonGroundScore,
  hasCommonGround,
  isCommonGround,
  netApprovals,
  sideApproval,
  sidesOfResponse,
  wilsonLowerBound,
} from '../../shared/rules/common-ground';

describe('wilsonLowerBound', () => {
  it('matches hand-computed values (z = 1.96)', () => {
    expect(wilsonLowerBound(3, 8)).toBeCloseTo(0.1368, 4);
    expect(wilsonLowerBound(6, 10)).toBeCloseTo(0.3127, 4);
    expect(wilsonLowerBound(1, 1)).toBeCloseTo(0.2065, 4);
    expect(wilsonLowerBound(2, 2)).toBeCloseTo(0.3424, 4);
  });

  it('is 0 without participants or approvals, and never above the observed share', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(0, 12)).toBe(0);
    for (const [s, n] of [
      [1, 3],
      [5, 9],
      [40, 41],
      [100, 100],
    ]) {
      const bound = wilsonLowerBound(s!, n!);
      expect(bound).toBeGreaterThan(0);
      expect(bound).toBeLessThanOrEqual(s! / n!);
    }
  });

  it('grows with evidence at the same share, and counts upvotes beyond the participants as all of them', () => {
    expect(wilsonLowerBound(2, 4)).toBeLessThan(wilsonLowerBound(20, 40));
    expect(wilsonLowerBound(20, 40)).toBeLessThan(wilsonLowerBound(200, 400));
    expect(wilsonLowerBound(9, 5)).toBe(wilsonLowerBound(5, 5));
    expect(wilsonLowerBound(-1, 5)).toBe(0);
  });
});

describe('commonGroundScore (docs/COMMON-GROUND.md worked example)', () => {
  it('takes the side that approves least', () => {
    expect(commonGroundScore({ upvotes: 6, participants: 10 }, { upvotes: 3, participants: 8 })).toBeCloseTo(0.137, 3);
    expect(commonGroundScore({ upvotes: 9, participants: 10 }, { upvotes: 1, participants: 8 })).toBeCloseTo(0.022, 3);
    expect(commonGroundScore({ upvotes: 30, participants: 40 }, { upvotes: 20, participants: 30 })).toBeCloseTo(0.488, 3);
  });

  it('ranks approval from both sides above more votes from one side', () => {
    const oneSided = commonGroundScore({ upvotes: 9, participants: 10 }, { upvotes: 1, participants: 8 });
    const bothSides = commonGroundScore({ upvotes: 6, participants: 10 }, { upvotes: 3, participants: 8 });
    expect(bothSides).toBeGreaterThan(oneSided);
  });

  it('is 0 while a side has no participants (nobody there to agree with)', () => {
    expect(commonGroundScore({ upvotes: 50, participants: 50 }, { upvotes: 0, participants: 0 })).toBe(0);
  });

  it('marks the badge from 2 of 2 on each side, not 1 of 1', () => {
    expect(COMMON_GROUND_BADGE_THRESHOLD).toBe(0.3);
    expect(isCommonGround({ upvotes: 1, participants: 1 }, { upvotes: 1, participants: 1 })).toBe(false);
    expect(isCommonGround({ upvotes: 2, participants: 2 }, { upvotes: 2, participants: 2 })).toBe(true);
    expect(isCommonGround({ upvotes: 30, participants: 40 }, { upvotes: 20, participants: 30 })).toBe(true);
    expect(isCommonGround({ upvotes: 6, participants: 10 }, { upvotes: 3, participants: 8 })).toBe(false);
  });
});

describe("hasCommonGround (a response and its topic's participants by side)", () => {
  it.each([
    { agree: 2, disagree: 2, participants: { agree: 2, disagree: 2 }, badge: true },
    { agree: 1, disagree: 1, participants: { agree: 1, disagree: 1 }, badge: false },
    { agree: 30, disagree: 20, participants: { agree: 40, disagree: 30 }, badge: true },
    { agree: 9, disagree: 0, participants: { agree: 10, disagree: 0 }, badge: false },
  ])(
    '$agree/$participants.agree agree and $disagree/$participants.disagree disagree: badge $badge',
    ({ agree, disagree, participants, badge }) => {
      expect(hasCommonGround({ upvotes_agree: agree, upvotes_disagree: disagree }, participants)).toBe(badge);
    },
  );
});

describe('disagrees count: a response one side disagrees with is not common ground', () => {
  const participants = { agree: 10, disagree: 10 };

  it('agreed by the agree side and disagreed by the disagree side: no common ground', () => {
    const split = { upvotes_agree: 8, upvotes_disagree: 0, downvotes_agree: 0, downvotes_disagree: 8 };
    expect(hasCommonGround(split, participants)).toBe(false);
    expect(commonGroundScore(...sidesOfResponse(split, participants))).toBe(0);
  });

  it('agreed by both sides (a few disagrees aside): common ground', () => {
    const both = { upvotes_agree: 8, upvotes_disagree: 8, downvotes_agree: 1, downvotes_disagree: 0 };
    expect(hasCommonGround(both, participants)).toBe(true);
  });

  it('a disagree cancels an agree of the same side: agreed by 6 and disagreed by 4 of a side is 2 net', () => {
    const mixed = { upvotes: 6, downvotes: 4, participants: 10 };
    expect(netApprovals(mixed)).toBe(2);
    expect(sideApproval(mixed)).toBeCloseTo(wilsonLowerBound(2, 10), 10);
    expect(netApprovals({ upvotes: 1, downvotes: 5, participants: 10 })).toBe(0);
    // The same agrees with no disagrees: common ground; with as many disagrees on one side: none.
    expect(isCommonGround({ upvotes: 8, participants: 10 }, { upvotes: 8, participants: 10 })).toBe(true);
    expect(isCommonGround({ upvotes: 8, participants: 10 }, { upvotes: 8, downvotes: 8, participants: 10 })).toBe(false);
  });

  it('without disagree counts (an older copy) it reads as before', () => {
    expect(hasCommonGround({ upvotes_agree: 2, upvotes_disagree: 2 }, { agree: 2, disagree: 2 })).toBe(true);
  });
});
