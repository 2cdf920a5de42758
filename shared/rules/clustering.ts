// The numeric parts of opinion groups, after Polis's own math (compdemocracy/polis,
// math/src/polismath/math: pca.clj, clusters.clj, conversation.clj), kept small and dependency-free:
//  - the vote matrix: +1 agree, −1 disagree, 0 pass, and a missing entry where a person has not voted;
//    a missing entry is imputed with its column's mean, so after centring it is exactly 0 and the
//    centred matrix stays as sparse as the votes;
//  - its top principal components by power iteration on Cᵀ·C, never formed: one step costs
//    O(votes + responses);
//  - each person projected from their own votes only, scaled by sqrt(responses / their votes): a
//    person who voted on few responses is pushed out as far as one who voted on all, so how much
//    someone votes is not an axis of the picture;
//  - Polis's k-means: centres start at the first k distinct points, a point joins its nearest centre,
//    centres are the (weighted) means, until no centre moves by 0.01;
//  - the silhouette.
// Deterministic: every random choice comes from a seeded generator, and ties keep index order.

/** A small seeded generator (mulberry32): the same seed gives the same groups on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One person's votes: `columns[i]` (a response's index) got `values[i]` (+1, −1 or 0). */
export interface VoteRow {
  columns: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** A participant × response vote matrix; a response a row does not list is missing for that row. */
export interface VoteMatrix {
  rows: readonly VoteRow[];
  columns: number;
}

export type Point = readonly number[];

export interface Components {
  /** Each column's mean over the people who voted on it (0 when nobody did). */
  center: Float64Array;
  /** Unit vectors over the columns, strongest first. */
  axes: Float64Array[];
}

const POWER_ITERATIONS = 1000;
const POWER_TOLERANCE = 1e-12;

function normalise(v: Float64Array): number {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let j = 0; j < v.length; j++) v[j]! /= norm;
  return norm;
}

/** Column means of the votes cast (the imputation of the missing entries). */
export function columnMeans(matrix: VoteMatrix): Float64Array {
  const sum = new Float64Array(matrix.columns);
  const count = new Float64Array(matrix.columns);
  for (const { columns, values } of matrix.rows) {
    for (let i = 0; i < columns.length; i++) {
      sum[columns[i]!]! += values[i]!;
      count[columns[i]!]!++;
    }
  }
  for (let j = 0; j < sum.length; j++) sum[j] = count[j]! > 0 ? sum[j]! / count[j]! : 0;
  return sum;
}

/**
 * The top `dims` principal components of the mean-imputed vote matrix. Polis's power iteration runs
 * 100 steps from the last update's components; here, from scratch, it runs until the direction stops
 * moving. Each later component is kept orthogonal to the earlier ones (Polis factors them out).
 */
export function principalComponents(matrix: VoteMatrix, random: () => number, dims = 2): Components {
  const { rows, columns: n } = matrix;
  const center = columnMeans(matrix);
  const multiply = (v: Float64Array): Float64Array => {
    const out = new Float64Array(n);
    for (const { columns, values } of rows) {
      let u = 0;
      for (let i = 0; i < columns.length; i++) u += (values[i]! - center[columns[i]!]!) * v[columns[i]!]!;
      if (u !== 0) for (let i = 0; i < columns.length; i++) out[columns[i]!]! += u * (values[i]! - center[columns[i]!]!);
    }
    return out;
  };
  const orthogonalise = (v: Float64Array, against: Float64Array[]) => {
    for (const w of against) {
      let dot = 0;
      for (let j = 0; j < n; j++) dot += v[j]! * w[j]!;
      for (let j = 0; j < n; j++) v[j]! -= dot * w[j]!;
    }
  };
  const axes: Float64Array[] = [];
  for (let c = 0; c < dims; c++) {
    let v: Float64Array = new Float64Array(n);
    for (let j = 0; j < n; j++) v[j] = random() + 0.5;
    orthogonalise(v, axes);
    normalise(v);
    for (let step = 0; step < POWER_ITERATIONS; step++) {
      const next = multiply(v);
      orthogonalise(next, axes);
      if (normalise(next) === 0) {
        v = next; // no variance left in this direction: a zero axis places everyone at 0
        break;
      }
      let change = 0;
      for (let j = 0; j < n; j++) change += (next[j]! - v[j]!) ** 2;
      v = next;
      if (change < POWER_TOLERANCE) break;
    }
    axes.push(v);
  }
  return { center, axes };
}

/**
 * Each row's place on the components, from the votes it cast only (a missing entry adds nothing),
 * scaled by sqrt(columns / votes cast) as Polis does: the sum over few votes is short because few
 * terms were added, not because the person holds a middle view.
 */
export function projectRows(matrix: VoteMatrix, { center, axes }: Components): number[][] {
  return matrix.rows.map(({ columns, values }) => {
    const scale = Math.sqrt(matrix.columns / Math.max(columns.length, 1));
    return axes.map((axis) => {
      let x = 0;
      for (let i = 0; i < columns.length; i++) x += (values[i]! - center[columns[i]!]!) * axis[columns[i]!]!;
      return x * scale;
    });
  });
}

export function distance(a: Point, b: Point): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += (a[d]! - b[d]!) ** 2;
  return Math.sqrt(sum);
}

/** Polis stops k-means when every centre moved less than this. */
const SAME_CLUSTERING = 0.01;

export interface Clustering {
  /** Each point's cluster, 0..centres.length − 1 (an emptied cluster is dropped and the rest renumbered). */
  labels: number[];
  centres: number[][];
  /** Each cluster's total weight (its points' count when no weights are given). */
  sizes: number[];
}

/**
 * Polis's k-means: the first k distinct points are the starting centres; each step, every point
 * joins its nearest centre (the first of equals), a cluster left empty is dropped, and each centre
 * moves to its members' weighted mean; it stops when the sorted centres all moved less than 0.01, or
 * after `maxIterations` steps.
 */
export function kMeans(
  points: readonly Point[],
  k: number,
  maxIterations: number,
  weights?: readonly number[],
  start?: number[][],
): Clustering {
  const seen = new Set<string>();
  let centres: number[][] = start ? start.map((c) => [...c]) : [];
  for (const p of start ? [] : points) {
    if (centres.length >= k) break;
    const key = p.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    centres.push([...p]);
  }
  const dims = points[0]?.length ?? 0;
  const weight = (i: number) => weights?.[i] ?? 1;
  let labels = new Array<number>(points.length).fill(0);
  let sizes: number[] = [];
  for (let step = 0; step <= maxIterations; step++) {
    const sums = centres.map(() => new Array<number>(dims).fill(0));
    const totals = new Array<number>(centres.length).fill(0);
    const assigned = points.map((p, i) => {
      let nearest = 0;
      let best = Infinity;
      centres.forEach((c, index) => {
        const d = distance(p, c);
        if (d < best) {
          best = d;
          nearest = index;
        }
      });
      totals[nearest]! += weight(i);
      for (let d = 0; d < dims; d++) sums[nearest]![d]! += p[d]! * weight(i);
      return nearest;
    });
    const kept = centres.map((_, c) => c).filter((c) => totals[c]! > 0);
    const renumber = new Map(kept.map((c, index) => [c, index]));
    const next = kept.map((c) => sums[c]!.map((s) => s / totals[c]!));
    labels = assigned.map((c) => renumber.get(c)!);
    sizes = kept.map((c) => totals[c]!);
    const settled = sameCentres(centres, next);
    centres = next;
    if (settled) break;
  }
  return { labels, centres, sizes };
}

function sameCentres(before: number[][], after: number[][]): boolean {
  const order = (cs: number[][]) => [...cs].sort((a, b) => a.reduce((s, x, d) => s || x - b[d]!, 0));
  const a = order(before);
  const b = order(after);
  return a.length === b.length && a.every((c, i) => distance(c, b[i]!) < SAME_CLUSTERING);
}

/** At most this many points are scored by the silhouette (every ⌈n / SILHOUETTE_POINTS⌉-th one). */
export const SILHOUETTE_POINTS = 1000;

/**
 * The mean silhouette of a labelling: for each point, (b − a) / max(a, b), with a its mean distance
 * to its own group and b to the nearest other group (0 for a point alone in its group). Exact up to
 * SILHOUETTE_POINTS points (O(n²)); beyond, the mean over an evenly strided sample of them (each
 * still measured against every point), so a very big set costs O(SILHOUETTE_POINTS · n).
 */
export function silhouette(points: readonly Point[], labels: readonly number[], k: number): number {
  const n = points.length;
  const sizes = new Array<number>(k).fill(0);
  for (const label of labels) sizes[label]!++;
  const stride = Math.ceil(n / SILHOUETTE_POINTS);
  let total = 0;
  let scored = 0;
  const sums = new Float64Array(k);
  for (let i = 0; i < n; i += stride) {
    scored++;
    sums.fill(0);
    const p = points[i]!;
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += distance(p, points[j]!);
    const own = labels[i]!;
    if (sizes[own]! <= 1) continue;
    const a = sums[own]! / (sizes[own]! - 1);
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && sizes[c]! > 0) b = Math.min(b, sums[c]! / sizes[c]!);
    const s = Math.max(a, b) > 0 ? (b - a) / Math.max(a, b) : 0;
    total += Number.isFinite(s) ? s : 0;
  }
  return scored > 0 ? total / scored : 0;
}
