// Who votes alike: Polis's two-stage grouping of a vote matrix (compdemocracy/polis,
// math/src/polismath/math/conversation.clj), on the numeric parts of ./clustering.ts:
//  1. the top two principal components of everyone's votes (missing entries imputed), and each
//     counted participant's place on them, scaled by sqrt(responses / their votes);
//  2. k-means into BASE_CLUSTERS small clusters, then k-means of those clusters' centres (weighted by
//     their members) for every k from 2 to MAX_GROUPS (fewer for few clusters, as Polis does); the k
//     with the best silhouette over the small clusters wins;
//  3. Polis starts each k-means at the first distinct points, so its groups depend on the order
//     people arrived in (and it refines them at each new vote). Here the participants are first
//     sorted by their place on the components (placeOrder), the same steps run on ORDERINGS seeded
//     orders of that list, the fewest groups most runs allow win (LARGER_K), and each person joins
//     the group most of those runs put them in: the same votes give the same groups, whatever ids
//     (and so whatever order) the participants and responses have;
//  4. the groups are clear only when they hold opposite views (opposition below): k-means always
//     splits, and votes with no shared opinions still split by how readily people agree.
import { kMeans, principalComponents, projectRows, seededRandom, silhouette, type Point, type VoteMatrix } from './clustering.js';

export const POLIS_GROUPING = {
  BASE_CLUSTERS: 100,
  BASE_ITERATIONS: 100,
  /** Polis's group k-means runs its default 20 steps. */
  GROUP_ITERATIONS: 20,
  MAX_GROUPS: 5,
  ORDERINGS: 9,
  /** The share of the orderings' runs that must choose more groups for more groups to show. */
  LARGER_K: 2 / 3,
  /**
   * Groups are clear when responses divide a pair of them one way and others the other way, each by
   * a z-score of at least sqrt(2 ln tests) + CLEAR_MARGIN, where tests counts the (pair, response)
   * differences looked at: the largest of that many chance differences rarely passes
   * sqrt(2 ln tests). Measured on the 17 public Polis conversations and the same votes shuffled
   * (docs/COMMON-GROUND.md): the margin that keeps every shuffle below its bar and still lets four
   * groups of twelve people show.
   */
  CLEAR_MARGIN: 0.5,
  /** Real groups' opposition is at least this many times the opposition of the same votes shuffled. */
  ABOVE_CHANCE: 1.2,
  /**
   * The opposition of a pair of groups is its DIVIDING-th strongest difference each way: one
   * response that splits them can be chance (on many people, a split of noise along one principal
   * axis leans on a few responses), a difference of views shows on several.
   */
  DIVIDING: 2,
  /** A response counts in the opposition of two groups when at least this many of each voted on it. */
  MIN_VOTERS: 5,
} as const;

/** What the grouping found: each counted participant's group (0..k-1), and how clear the groups are. */
export interface Grouping {
  labels: number[];
  k: number;
  /** The mean silhouette of the runs that chose k (over the small clusters' centres). */
  silhouette: number;
  /** See opposition(). */
  opposition: number;
}

/**
 * Groups the participants whose `counted[i]` is true (everyone's votes shape the components). Labels
 * are in the order of the counted rows. Null when no k gives groups of `minGroupSize` people, or
 * the groups are not clear (their opposition is below its bar).
 */
export function groupParticipants(matrix: VoteMatrix, counted: readonly boolean[], minGroupSize: number, seed: number): Grouping | null {
  const random = seededRandom(seed);
  const found = consensusGroups(matrix, counted, minGroupSize, random);
  if (!found) return null;
  const { score, needed } = opposition(matrix, counted, found.labels, found.k);
  if (score < needed) return null;
  // The same steps on the same votes shuffled within each person (who voted on what, and how
  // readily each person agrees, stay): k-means splits any cloud, and on many people even a chance
  // split differs beyond the bar; real groups must stand well above what the shuffle finds.
  const shuffled = shuffleWithinRows(matrix, random);
  const chanceGroups = consensusGroups(shuffled, counted, minGroupSize, random);
  const chance = chanceGroups ? opposition(shuffled, counted, chanceGroups.labels, chanceGroups.k).score : 0;
  if (score < POLIS_GROUPING.ABOVE_CHANCE * chance) return null;
  return { ...found, opposition: score };
}

/** Each row's values moved at random among the responses that row voted on. */
function shuffleWithinRows(matrix: VoteMatrix, random: () => number): VoteMatrix {
  return {
    columns: matrix.columns,
    rows: matrix.rows.map(({ columns, values }) => {
      const moved = Array.from(values);
      for (let i = moved.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [moved[i], moved[j]] = [moved[j]!, moved[i]!];
      }
      return { columns, values: moved };
    }),
  };
}

/** Polis's grouping on ORDERINGS orders of the participants, and each person's most frequent group. */
function consensusGroups(
  matrix: VoteMatrix,
  counted: readonly boolean[],
  minGroupSize: number,
  random: () => number,
): { labels: number[]; k: number; silhouette: number } | null {
  const projected = projectRows(matrix, principalComponents(matrix, random, 2));
  const points = projected.filter((_, i) => counted[i]);
  if (points.length < 2 * minGroupSize) return null;
  const canonical = placeOrder(points);
  const runs: Array<{ labels: number[]; k: number; silhouette: number }> = [];
  for (let r = 0; r < POLIS_GROUPING.ORDERINGS; r++) {
    const order = [...canonical];
    // The first run takes the participants by their place, the others in seeded random orders.
    if (r > 0) {
      for (let i = order.length - 1; i > 0; i--) {
        const x = Math.floor(random() * (i + 1));
        [order[i], order[x]] = [order[x]!, order[i]!];
      }
    }
    const run = groupOnce(
      order.map((i) => points[i]!),
      minGroupSize,
    );
    if (!run) continue;
    const labels = new Array<number>(points.length);
    order.forEach((i, n) => (labels[i] = run.labels[n]!));
    runs.push({ ...run, labels });
  }
  if (runs.length === 0) return null;
  // The fewest groups most runs allow: a larger k only when LARGER_K of the runs chose more (Polis's
  // own smoother keeps its k until a larger one wins several times in a row). The most chosen k
  // alone let a 5-to-4 split decide, so the same votes under other ids could show 3 groups, not 2.
  const ks = [...new Set(runs.map((run) => run.k))].sort((a, b) => a - b);
  const k = ks.find((candidate) => runs.filter((run) => run.k > candidate).length < POLIS_GROUPING.LARGER_K * runs.length)!;
  const same = runs.filter((run) => run.k === k);
  const tally = points.map(() => new Array<number>(k).fill(0));
  for (const run of same) {
    const rename = bestMatch(run.labels, same[0]!.labels, k);
    run.labels.forEach((label, i) => tally[i]![rename[label]!]!++);
  }
  const voted = tally.map((t) => t.indexOf(Math.max(...t)));
  // Renumber in order of first appearance; a group the majority emptied is gone.
  const numbers = new Map<number, number>();
  const labels = voted.map((g) => numbers.get(g) ?? (numbers.set(g, numbers.size), numbers.size - 1));
  const sizes = new Array<number>(numbers.size).fill(0);
  for (const label of labels) sizes[label]!++;
  if (sizes.length < 2 || Math.min(...sizes) < minGroupSize) return null;
  return { labels, k: sizes.length, silhouette: same.reduce((s, run) => s + run.silhouette, 0) / same.length };
}

/**
 * The points' indexes sorted by where the points lie (first axis, then second; the axes' signs are
 * fixed by principalComponents). The rows arrive in the order of their ids, which are random, and
 * k-means starts at the first distinct points: sorting by place makes the runs start alike whatever
 * the ids (on ids alone, 5 of 100 relabelings of brexit-consensus showed three groups, not two).
 * Coordinates are rounded first, so summation order in the components cannot swap two neighbours.
 */
function placeOrder(points: readonly Point[]): number[] {
  const key = (x: number | undefined) => Math.round((x ?? 0) * 1e6);
  return points
    .map((point, i) => ({ i, a: key(point[0]), b: key(point[1]) }))
    .sort((p, q) => p.a - q.a || p.b - q.b || p.i - q.i)
    .map((p) => p.i);
}

/** One run of Polis's two stages on the points in this order. */
function groupOnce(points: readonly Point[], minGroupSize: number): { labels: number[]; k: number; silhouette: number } | null {
  const base = kMeans(points, POLIS_GROUPING.BASE_CLUSTERS, POLIS_GROUPING.BASE_ITERATIONS);
  const maxK = Math.min(POLIS_GROUPING.MAX_GROUPS, 2 + Math.floor(base.centres.length / 12));
  let best: { labels: number[]; k: number; silhouette: number } | null = null;
  for (let k = 2; k <= maxK && k <= base.centres.length; k++) {
    const groups = kMeans(base.centres, k, POLIS_GROUPING.GROUP_ITERATIONS, base.sizes);
    if (groups.sizes.length < 2 || Math.min(...groups.sizes) < minGroupSize) continue;
    const score = silhouette(base.centres, groups.labels, groups.sizes.length);
    if (!best || score > best.silhouette) {
      best = { labels: base.labels.map((b) => groups.labels[b]!), k: groups.sizes.length, silhouette: score };
    }
  }
  return best;
}

function permutations(k: number): number[][] {
  if (k <= 1) return [[0]];
  return permutations(k - 1).flatMap((p) => Array.from({ length: k }, (_, i) => [...p.slice(0, i), k - 1, ...p.slice(i)]));
}

/** The renaming of `labels`'s groups that agrees with `reference` on the most people (k ≤ 5: 120 tries). */
function bestMatch(labels: readonly number[], reference: readonly number[], k: number): number[] {
  const overlap = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  labels.forEach((label, i) => overlap[label]![reference[i]!]!++);
  let best: number[] = [];
  let bestScore = -1;
  for (const p of permutations(k)) {
    const score = p.reduce((s, to, from) => s + overlap[from]![to]!, 0);
    if (score > bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}

/** The n-th largest of `values` (0 when there are fewer). */
function nthLargest(values: number[], n: number): number {
  return values.sort((x, y) => y - x)[n - 1] ?? 0;
}

/**
 * How clearly the groups hold opposite views, not only more or less agreement: for every pair of
 * groups and every response at least MIN_VOTERS of each voted on, the z-score of the difference of
 * their mean votes (against the pair's pooled spread); a pair scores the smaller of its DIVIDING-th
 * strongest difference each way (one group more for some responses, the other more for others); the
 * groups score their best pair, and `needed` is the bar that score must reach (CLEAR_MARGIN). Votes
 * shuffled within each person keep each person's share of agrees, so groups found in them differ in
 * level on every response alike and score low.
 */
export function opposition(
  matrix: VoteMatrix,
  counted: readonly boolean[],
  labels: readonly number[],
  k: number,
): { score: number; needed: number } {
  const n = matrix.columns;
  const sum = Array.from({ length: k }, () => new Float64Array(n));
  const squares = Array.from({ length: k }, () => new Float64Array(n));
  const count = Array.from({ length: k }, () => new Float64Array(n));
  let member = 0;
  matrix.rows.forEach((row, i) => {
    if (!counted[i]) return;
    const g = labels[member++]!;
    for (let e = 0; e < row.columns.length; e++) {
      const j = row.columns[e]!;
      const x = row.values[e]!;
      sum[g]![j]! += x;
      squares[g]![j]! += x * x;
      count[g]![j]!++;
    }
  });
  let best = 0;
  let tests = 0;
  for (let g = 0; g < k; g++) {
    for (let h = g + 1; h < k; h++) {
      const ups: number[] = [];
      const downs: number[] = [];
      for (let j = 0; j < n; j++) {
        const a = count[g]![j]!;
        const b = count[h]![j]!;
        if (a < POLIS_GROUPING.MIN_VOTERS || b < POLIS_GROUPING.MIN_VOTERS) continue;
        const mean = (sum[g]![j]! + sum[h]![j]!) / (a + b);
        const pooled = (squares[g]![j]! + squares[h]![j]!) / (a + b) - mean * mean;
        if (!(pooled > 0)) continue;
        const z = (sum[g]![j]! / a - sum[h]![j]! / b) / Math.sqrt(pooled * (1 / a + 1 / b));
        tests++;
        if (z > 0) ups.push(z);
        else downs.push(-z);
      }
      best = Math.max(best, Math.min(nthLargest(ups, POLIS_GROUPING.DIVIDING), nthLargest(downs, POLIS_GROUPING.DIVIDING)));
    }
  }
  return { score: best, needed: Math.sqrt(2 * Math.log(Math.max(tests, 2))) + POLIS_GROUPING.CLEAR_MARGIN };
}
