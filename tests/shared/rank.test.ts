// Competition ranking ("1224") used for the leaderboard and a user's rank.
import { describe, expect, it } from 'vitest';
import { competitionRanks, shownRank } from '../../shared/rules/rank.js';

describe('competitionRanks', () => {
  it.each([
    [[], []],
    [[7], [1]],
    [
      [10, 8, 8, 5],
      [1, 2, 2, 4],
    ],
    [
      [3, 3, 3],
      [1, 1, 1],
    ],
    [
      [9, 8, 7],
      [1, 2, 3],
    ],
    [
      [5, 5, 4, 4, 4, 1],
      [1, 1, 3, 3, 3, 6],
    ],
    [
      [2, 1, 1, 1, 0],
      [1, 2, 2, 2, 5],
    ],
  ])('points %j → ranks %j', (points, ranks) => {
    const ranked = competitionRanks(points.map((p, i) => ({ uid: `u${i}`, points: p })));
    expect(ranked.map((entry) => entry.rank)).toEqual(ranks);
  });

  it('keeps every other field and the order it was given', () => {
    const input = [
      { uid: 'a', display_name: 'Ada', points: 4 },
      { uid: 'b', display_name: null, points: 4 },
      { uid: 'c', display_name: 'Cy', points: 1 },
    ];
    expect(competitionRanks(input)).toEqual([
      { uid: 'a', display_name: 'Ada', points: 4, rank: 1 },
      { uid: 'b', display_name: null, points: 4, rank: 1 },
      { uid: 'c', display_name: 'Cy', points: 1, rank: 3 },
    ]);
  });

  it('does not change its input', () => {
    const input = [{ points: 2 }, { points: 1 }];
    competitionRanks(input);
    expect(input).toEqual([{ points: 2 }, { points: 1 }]);
  });
});

// The leaderboard lists only users with points, so a rank is shown only with points.
describe('shownRank', () => {
  it.each([
    [0, 7, null],
    [0, 1, null],
    [-3, 9, null],
    [1, 2, 2],
    [12, 3, 3],
    [5, null, null],
    [5, undefined, null],
  ])('%i points, server rank %j → %j', (points, rank, shown) => {
    expect(shownRank(points, rank)).toBe(shown);
  });
});
