// Hot ranking (docs/RULES.md). Time-invariant (it depends only on the item's own
// score, response count and creation time), so the server stores and indexes it.

export function hotScore(score: number, responsesCount: number, createdAt: string | Date): number {
  const s = score + responsesCount;
  const order = Math.log10(Math.max(Math.abs(s), 1));
  const sign = Math.sign(s);
  const createdSeconds = new Date(createdAt).getTime() / 1000;
  return sign * order + createdSeconds / 45_000;
}
