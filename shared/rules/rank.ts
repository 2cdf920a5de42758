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
