// Competition ranking ("1224"): tied points share a rank, the next rank skips.

export function competitionRanks<T extends { points: number }>(sortedDesc: readonly T[]): (T & { rank: number })[] {
  let rank = 0;
  let previous: number | undefined;
  return sortedDesc.map((entry, index) => {
    if (entry.points !== previous) {
      rank = index + 1;
      previous = entry.points;
    }
    return { ...entry, rank };
  });
}

/**
 * No rank until there are points: the leaderboard lists only users with more than 0
 * points, so a user with none (or fewer) has no place on it, and the server's count ("#7" for a new
 * user, "#1" on an empty leaderboard) is not shown. The rank, or null when none is shown.
 */
export function shownRank(points: number, rank: number | null | undefined): number | null {
  return points > 0 && rank ? rank : null;
}
