// The numeric parts of opinion groups, kept small and dependency-free: the top
// principal components of a sparse 0/1 matrix by power iteration, seeded k-means++ and the
// silhouette. No library is installed for linear algebra, and a few components of a matrix whose
// rows hold a few column indices need nothing more than repeated sparse products.
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

/** A participant × response matrix of 0/1 votes: row i lists the columns (responses) row i upvoted. */
export interface SparseRows {
  rows: number[][];
  columns: number;
}

const POWER_ITERATIONS = 200;
const POWER_TOLERANCE = 1e-9;

function normalise(v: Float64Array): number {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let j = 0; j < v.length; j++) v[j]! /= norm;
  return norm;
}

export type Point = readonly number[];

/**
 * Each row's coordinates on the top `dims` principal components of the column-centred matrix.
 * Power iteration on Xcᵀ·Xc without forming it: Xc·v = X·v − (μ·v) and Xcᵀ·u = Xᵀ·u − μ·Σu, so one
 * step costs O(votes + responses). Each component is kept orthogonal to the earlier ones at every step
 * (deflation). Three components, not two: four equally distinct groups sit at the corners of a
 * tetrahedron, which no plane shows apart.
 */
export function principalCoordinates(matrix: SparseRows, random: () => number, dims = 3): number[][] {
  const { rows, columns } = matrix;
  const n = rows.length;
  const mean = new Float64Array(columns);
  for (const row of rows) for (const j of row) mean[j]! += 1 / n;

  const multiply = (v: Float64Array): Float64Array => {
    let meanDot = 0;
    for (let j = 0; j < columns; j++) meanDot += mean[j]! * v[j]!;
    const out = new Float64Array(columns);
    let sumU = 0;
    for (const row of rows) {
      let u = -meanDot;
      for (const j of row) u += v[j]!;
      sumU += u;
      for (const j of row) out[j]! += u;
    }
    for (let j = 0; j < columns; j++) out[j]! -= mean[j]! * sumU;
    return out;
  };
  const orthogonalise = (v: Float64Array, against: Float64Array[]) => {
    for (const w of against) {
      let dot = 0;
      for (let j = 0; j < columns; j++) dot += v[j]! * w[j]!;
      for (let j = 0; j < columns; j++) v[j]! -= dot * w[j]!;
    }
  };
  const components: Float64Array[] = [];
  for (let c = 0; c < dims; c++) {
    let v: Float64Array = new Float64Array(columns);
    for (let j = 0; j < columns; j++) v[j] = random() - 0.5;
    orthogonalise(v, components);
    normalise(v);
    for (let step = 0; step < POWER_ITERATIONS; step++) {
      const next = multiply(v);
      orthogonalise(next, components);
      if (normalise(next) === 0) break; // no variance left in this direction
      let change = 0;
      for (let j = 0; j < columns; j++) change += (next[j]! - v[j]!) ** 2;
      v = next;
      if (change < POWER_TOLERANCE) break;
    }
    components.push(v);
  }
  return rows.map((row) => {
    const point = new Array<number>(dims).fill(0);
    for (let c = 0; c < dims; c++) {
      const v = components[c]!;
      let x = 0;
      for (let j = 0; j < columns; j++) x -= mean[j]! * v[j]!;
      for (const j of row) x += v[j]!;
      point[c] = x;
    }
    return point;
  });
}

function distance2(a: Point, b: Point): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += (a[d]! - b[d]!) ** 2;
  return sum;
}

const KMEANS_ITERATIONS = 100;

/** k-means with k-means++ seeding, `restarts` times; the labelling with the lowest inertia wins. */
export function kMeans(points: readonly Point[], k: number, random: () => number, restarts = 8): number[] {
  let best: { labels: number[]; inertia: number } | null = null;
  for (let r = 0; r < restarts; r++) {
    const centres: number[][] = [[...points[Math.floor(random() * points.length)]!]];
    while (centres.length < k) {
      const weights = points.map((p) => Math.min(...centres.map((c) => distance2(p, c))));
      const total = weights.reduce((s, w) => s + w, 0);
      let pick = random() * total;
      let index = 0;
      while (index < points.length - 1 && pick >= weights[index]!) pick -= weights[index++]!;
      centres.push([...points[index]!]);
    }
    const labels = new Array<number>(points.length).fill(-1);
    for (let step = 0; step < KMEANS_ITERATIONS; step++) {
      let moved = false;
      points.forEach((p, i) => {
        let nearest = 0;
        for (let c = 1; c < k; c++) if (distance2(p, centres[c]!) < distance2(p, centres[nearest]!)) nearest = c;
        if (labels[i] !== nearest) {
          labels[i] = nearest;
          moved = true;
        }
      });
      if (!moved) break;
      for (let c = 0; c < k; c++) {
        const sum = new Array<number>(points[0]!.length).fill(0);
        let size = 0;
        points.forEach((p, i) => {
          if (labels[i] === c) {
            p.forEach((x, d) => (sum[d]! += x));
            size++;
          }
        });
        if (size > 0) centres[c] = sum.map((x) => x / size);
      }
    }
    const inertia = points.reduce((s, p, i) => s + distance2(p, centres[labels[i]!]!), 0);
    if (!best || inertia < best.inertia) best = { labels, inertia };
  }
  return best!.labels;
}

/** At most this many points are scored by the silhouette (every ⌈n / SILHOUETTE_POINTS⌉-th one). */
export const SILHOUETTE_POINTS = 1000;

/**
 * The mean silhouette of a labelling: for each point, (b − a) / max(a, b), with a its mean distance
 * to its own group and b to the nearest other group (0 for a point alone in its group). Exact up to
 * SILHOUETTE_POINTS points (O(n²)); beyond, the mean over an evenly strided sample of them (each
 * still measured against every point), so a very big topic costs O(SILHOUETTE_POINTS · n).
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
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += Math.sqrt(distance2(p, points[j]!));
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
