// The numeric parts of opinion groups, after Polis's own math (compdemocracy/polis,
// math/src/polismath/math: pca.clj, clusters.clj, conversation.clj), kept small and dependency-free:
//  - the vote matrix: +1 agree, −1 disagree, 0 pass, and a missing entry where a person has not voted;
//    a missing entry is imputed with its column's mean, so after centring it is exactly 0 and the
//    centred matrix stays as sparse as the votes;
//  - its top principal components by orthogonal (block power) iteration on Cᵀ·C, never formed: one step costs
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

const POWER_ITERATIONS = 100;
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
  const n = matrix.columns;
  const center = columnMeans(matrix);
  const centred = centredRows(matrix, center);
  // Orthogonal iteration: all the components at once, kept orthonormal. One vector at a time
  // crawls when two components carry nearly the same variance (three equal camps do), while the
  // plane they span settles fast; the axes within it are then the Rayleigh–Ritz ones.
  let axes: Float64Array[] = [];
  for (let c = 0; c < dims; c++) {
    const v = new Float64Array(n);
    for (let j = 0; j < n; j++) v[j] = random() + 0.5;
    orthogonalise(v, axes);
    axes.push(v);
    if (normalise(v) === 0) break;
  }
  for (let step = 0; step < POWER_ITERATIONS; step++) {
    const next: Float64Array[] = [];
    for (const v of axes) {
      const w = multiplyGram(centred, v);
      orthogonalise(w, next);
      normalise(w);
      next.push(w);
    }
    // How far the new vectors lie outside the old plane (0 when the plane stood still).
    let change = 0;
    for (const w of next) {
      const outside = Float64Array.from(w);
      orthogonalise(outside, axes);
      for (const x of outside) change += x * x;
    }
    axes = next;
    if (change < POWER_TOLERANCE) break;
  }
  return { center, axes: rayleighRitz(centred, axes) };
}

/**
 * The principal axes within the plane (or line) `basis` spans: the eigenvectors of the Gram matrix
 * restricted to it, strongest first (Jacobi rotations on the small dims × dims matrix), each with
 * its largest entry positive, so the same votes give the same axes.
 */
function rayleighRitz(centred: CentredRows, basis: Float64Array[]): Float64Array[] {
  const d = basis.length;
  const images = basis.map((v) => multiplyGram(centred, v));
  const a = basis.map((v) => images.map((w) => dot(v, w)));
  const rotation = basis.map((_, i) => basis.map((_, j): number => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) off += a[p]![q]! ** 2;
    if (off < 1e-24) break;
    for (let p = 0; p < d; p++) {
      for (let q = p + 1; q < d; q++) {
        if (a[p]![q]! === 0) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const cos = 1 / Math.sqrt(t * t + 1);
        const sin = t * cos;
        for (let k = 0; k < d; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = cos * akp - sin * akq;
          a[k]![q] = sin * akp + cos * akq;
        }
        for (let k = 0; k < d; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = cos * apk - sin * aqk;
          a[q]![k] = sin * apk + cos * aqk;
        }
        for (let k = 0; k < d; k++) {
          const rkp = rotation[k]![p]!;
          const rkq = rotation[k]![q]!;
          rotation[k]![p] = cos * rkp - sin * rkq;
          rotation[k]![q] = sin * rkp + cos * rkq;
        }
      }
    }
  }
  const order = basis.map((_, i) => i).sort((x, y) => a[y]![y]! - a[x]![x]!);
  return order.map((i) => {
    const axis = new Float64Array(basis[0]!.length);
    basis.forEach((v, k) => {
      const weight = rotation[k]![i]!;
      for (let j = 0; j < axis.length; j++) axis[j]! += weight * v[j]!;
    });
    let largest = 0;
    for (const x of axis) if (Math.abs(x) > Math.abs(largest)) largest = x;
    if (largest < 0) for (let j = 0; j < axis.length; j++) axis[j] = -axis[j]!;
    return axis;
  });
}

function dot(v: Float64Array, w: Float64Array): number {
  let sum = 0;
  for (let j = 0; j < v.length; j++) sum += v[j]! * w[j]!;
  return sum;
}

/** The centred votes in compressed rows: row r's entries are offsets[r] .. offsets[r + 1] − 1. */
interface CentredRows {
  offsets: Int32Array;
  columns: Int32Array;
  values: Float64Array;
  width: number;
}

function centredRows(matrix: VoteMatrix, center: Float64Array): CentredRows {
  const offsets = new Int32Array(matrix.rows.length + 1);
  matrix.rows.forEach((row, r) => (offsets[r + 1] = offsets[r]! + row.columns.length));
  const columns = new Int32Array(offsets[matrix.rows.length]!);
  const values = new Float64Array(columns.length);
  matrix.rows.forEach((row, r) => {
    for (let i = 0; i < row.columns.length; i++) {
      const j = row.columns[i]!;
      columns[offsets[r]! + i] = j;
      values[offsets[r]! + i] = row.values[i]! - center[j]!;
    }
  });
  return { offsets, columns, values, width: matrix.columns };
}

/** Cᵀ·(C·v) for the centred matrix C, without forming either product's matrix. */
function multiplyGram({ offsets, columns, values, width }: CentredRows, v: Float64Array): Float64Array {
  const out = new Float64Array(width);
  for (let r = 0; r + 1 < offsets.length; r++) {
    const from = offsets[r]!;
    const to = offsets[r + 1]!;
    let u = 0;
    for (let e = from; e < to; e++) u += values[e]! * v[columns[e]!]!;
    if (u !== 0) for (let e = from; e < to; e++) out[columns[e]!]! += u * values[e]!;
  }
  return out;
}

function orthogonalise(v: Float64Array, against: readonly Float64Array[]): void {
  for (const w of against) {
    const along = dot(v, w);
    for (let j = 0; j < v.length; j++) v[j]! -= along * w[j]!;
  }
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
  const n = points.length;
  const dims = points[0]?.length ?? 0;
  // The points in one flat array: the assignment step is the hot loop (n × k × steps), so no
  // closures, no per-distance allocation and no square roots in it.
  const flat = new Float64Array(n * dims);
  points.forEach((p, i) => flat.set(p, i * dims));
  let centres: number[][] = start ? start.map((c) => [...c]) : [];
  if (!start) {
    const seen = new Set<string>();
    for (const p of points) {
      if (centres.length >= k) break;
      const key = p.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      centres.push([...p]);
    }
  }
  const assigned = new Int32Array(n);
  let labels: number[] = new Array<number>(n).fill(0);
  let sizes: number[] = [];
  for (let step = 0; step <= maxIterations; step++) {
    const m = centres.length;
    const at = new Float64Array(m * dims);
    centres.forEach((c, index) => at.set(c, index * dims));
    const sums = new Float64Array(m * dims);
    const totals = new Float64Array(m);
    assignNearest(flat, at, dims, assigned, sums, totals, weights);
    const kept = centres.map((_, c) => c).filter((c) => totals[c]! > 0);
    const renumber = new Int32Array(m);
    kept.forEach((c, index) => (renumber[c] = index));
    const next = kept.map((c) => Array.from({ length: dims }, (_, x) => sums[c * dims + x]! / totals[c]!));
    labels = Array.from(assigned, (c) => renumber[c]!);
    sizes = kept.map((c) => totals[c]!);
    const settled = sameCentres(centres, next);
    centres = next;
    if (settled) break;
  }
  return { labels, centres, sizes };
}

/**
 * One k-means step's assignment: each point to its nearest centre (the lowest-numbered of equals),
 * with the clusters' weighted sums and totals. The centres are sorted by their first coordinate and
 * searched outwards from the point's, stopping once that coordinate alone is farther than the best
 * found: in the plane most of a hundred centres are never measured. A function of its own with
 * plain local arrays, so the engine compiles the hot loop without closure variables.
 */
function assignNearest(
  flat: Float64Array,
  at: Float64Array,
  dims: number,
  assigned: Int32Array,
  sums: Float64Array,
  totals: Float64Array,
  weights: readonly number[] | undefined,
): void {
  const n = assigned.length;
  const m = totals.length;
  const byFirst = Int32Array.from({ length: m }, (_, c) => c).sort((x, y) => at[x * dims]! - at[y * dims]! || x - y);
  const firsts = Float64Array.from(byFirst, (c) => at[c * dims]!);
  for (let i = 0; i < n; i++) {
    const first = flat[i * dims]!;
    // The first sorted centre whose first coordinate is not below the point's.
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (firsts[mid]! < first) lo = mid + 1;
      else hi = mid;
    }
    let nearest = -1;
    let best = Infinity;
    for (let left = lo - 1, right = lo; left >= 0 || right < m;) {
      const goLeft = right >= m || (left >= 0 && first - firsts[left]! <= firsts[right]! - first);
      const k = goLeft ? left-- : right++;
      const gap = firsts[k]! - first;
      if (gap * gap > best) {
        // Every centre further out on this side is farther still; the other side may go on.
        if (goLeft) left = -1;
        else right = m;
        continue;
      }
      const c = byFirst[k]!;
      let d = 0;
      for (let x = 0; x < dims; x++) {
        const diff = flat[i * dims + x]! - at[c * dims + x]!;
        d += diff * diff;
      }
      if (d < best || (d === best && c < nearest)) {
        best = d;
        nearest = c;
      }
    }
    assigned[i] = nearest;
    const w = weights?.[i] ?? 1;
    totals[nearest]! += w;
    for (let x = 0; x < dims; x++) sums[nearest * dims + x]! += flat[i * dims + x]! * w;
  }
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
