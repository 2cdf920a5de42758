// Learns the weights of the "This was already said" scorer (shared/rules/similarity-model.ts) from
// the ArgKP-2021 training split and prints its figures on train and dev (the task's official metric,
// and the hint's precision and recall by threshold), the only figures it is chosen on.
//   npx tsx scripts/argkp-train.ts <folder holding arguments_train.csv, ..., labels_dev.csv> [--write]
// With --write it writes the weights to shared/rules/similarity-model.ts. Each argument is a draft, its
// topic's key points and other arguments the responses, as in tests/shared/similarity-argkp.test.ts;
// the scorer is a logistic regression over FEATURE_NAMES of each (argument, key point) pair the index
// offers, labelled 1 where the annotators matched them (0 otherwise, undecided pairs left out).
import { readFileSync, writeFileSync } from 'node:fs';
import { buildSimilarityIndex, FEATURE_NAMES, scoreFeatures, type Terms } from '../shared/rules/similarity';
import type { SimilarityModel } from '../shared/rules/similarity-model';
import { parseWordVectors, WORD_VECTORS_PATH, type WordVectors } from '../shared/rules/word-vectors';
import { type ArgKpSplit, hintRates, loadArgKp, meanAveragePrecision, type Prediction } from '../tests/data/argkp/argkp';

interface Pair {
  argId: string;
  keyPointId: string;
  topic: string;
  label: 0 | 1 | undefined;
  copy: boolean;
  features: Float64Array;
}

/** Every (argument, key point of its stance) pair the index offers, with its features. */
export function pairsOf(split: ArgKpSplit, vectors: WordVectors | null, others = Infinity): Pair[] {
  const out: Pair[] = [];
  const cache = new Map<string, Terms>();
  let seed = 1;
  const random = () => ((seed = Math.imul(seed, 48271) % 0x7fffffff) & 0x7fffffff) / 0x7fffffff;
  for (const topic of new Set(split.arguments.map((a) => a.topic))) {
    const args = split.arguments.filter((a) => a.topic === topic);
    const keyPoints = split.keyPoints.filter((k) => k.topic === topic);
    for (const arg of args) {
      const rest = args.filter((other) => other !== arg);
      // A smaller topic: a random `others` of the other arguments.
      for (let i = rest.length - 1; others < rest.length && i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [rest[i], rest[j]] = [rest[j]!, rest[i]!];
      }
      // ...and a random few of the key points of its stance (in a small topic a draft may have one
      // response to compare with, so no rival).
      const own = keyPoints.filter((k) => k.stance === arg.stance);
      for (let i = own.length - 1; others < rest.length && i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [own[i], own[j]] = [own[j]!, own[i]!];
      }
      const kept = others < rest.length ? own.slice(0, 1 + Math.floor(random() * own.length)) : own;
      const responses = [...keyPoints.filter((k) => k.stance !== arg.stance || kept.includes(k)), ...rest.slice(0, others)];
      const index = buildSimilarityIndex(responses, (r) => r.text, cache, vectors);
      const offered = (r: (typeof responses)[number]) => keyPoints.includes(r) && r.stance === arg.stance;
      for (const c of index.candidates(arg.text, (r) => !offered(r))) {
        const kp = responses[c.position]!;
        out.push({
          argId: arg.id,
          keyPointId: kp.id,
          topic,
          label: split.labels.get(`${arg.id} ${kp.id}`),
          copy: c.copy,
          features: c.features,
        });
      }
    }
  }
  return out;
}

/** Each argument's best key point by `model`. */
export function predictions(split: ArgKpSplit, pairs: readonly Pair[], model: SimilarityModel): Prediction[] {
  const best = new Map<string, Prediction>();
  for (const p of pairs) {
    const score = p.copy ? 1 : scoreFeatures(model, p.features);
    const known = best.get(p.argId);
    if (!known || score > known.score) best.set(p.argId, { argId: p.argId, keyPointId: p.keyPointId, score });
  }
  return split.arguments.map((a) => best.get(a.id) ?? { argId: a.id, keyPointId: '', score: 0 });
}

/** Logistic regression with an L2 penalty `lambda` on standardised features (Newton's method). */
export function fit(rows: readonly { x: ArrayLike<number>; y: number }[], use: readonly number[], lambda: number): SimilarityModel {
  const m = use.length;
  const mean = use.map((j) => rows.reduce((s, r) => s + r.x[j]!, 0) / rows.length);
  const sd = use.map((j, u) => Math.sqrt(rows.reduce((s, r) => s + (r.x[j]! - mean[u]!) ** 2, 0) / rows.length) || 1);
  const xs = rows.map((r) => [1, ...use.map((j, u) => (r.x[j]! - mean[u]!) / sd[u]!)]);
  const w = new Array<number>(m + 1).fill(0);
  for (let iter = 0; iter < 30; iter++) {
    const g = new Array<number>(m + 1).fill(0);
    const h = Array.from({ length: m + 1 }, () => new Array<number>(m + 1).fill(0));
    xs.forEach((x, i) => {
      const z = x.reduce((s, v, k) => s + v * w[k]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const e = p - rows[i]!.y;
      const q = p * (1 - p);
      for (let a = 0; a <= m; a++) {
        g[a]! += e * x[a]!;
        for (let b = 0; b <= m; b++) h[a]![b]! += q * x[a]! * x[b]!;
      }
    });
    for (let a = 1; a <= m; a++) {
      g[a]! += lambda * w[a]!;
      h[a]![a]! += lambda;
    }
    const step = solve(h, g);
    let change = 0;
    for (let a = 0; a <= m; a++) {
      w[a]! -= step[a]!;
      change += Math.abs(step[a]!);
    }
    if (change < 1e-9) break;
  }
  // Back to raw features.
  const weights = new Array<number>(FEATURE_NAMES.length).fill(0);
  let bias = w[0]!;
  use.forEach((j, u) => {
    weights[j] = w[u + 1]! / sd[u]!;
    bias -= (w[u + 1]! * mean[u]!) / sd[u]!;
  });
  return { bias, weights };
}

/** Solves h · x = g (Gaussian elimination with partial pivoting). */
function solve(h: number[][], g: number[]): number[] {
  const n = g.length;
  const a = h.map((row, i) => [...row, g[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/**
 * The L2 penalty on the standardised weights: chosen among 10, 30, 100, 300 and 1000 by the figures on
 * held-out topics (the training topics in four folds, and dev).
 */
const LAMBDA = 30;
/** Besides each training topic whole, its key points with this many of its other arguments. */
const TOPIC_SIZES = [12];
/** The training topics fall in this many folds, each measured with a scorer learned on the others. */
const FOLDS = 4;

const trainingRows = (pairs: readonly Pair[]) =>
  pairs.filter((p) => p.label !== undefined && !p.copy).map((p) => ({ x: p.features, y: p.label! }));

function report(name: string, split: ArgKpSplit, pairs: readonly Pair[], model: SimilarityModel, thresholds: readonly number[]) {
  const preds = predictions(split, pairs, model);
  const map = meanAveragePrecision(split, preds);
  const hints = thresholds.map((t) => hintRates(split, preds, t));
  console.log(
    `${name}: mAP ${map.strict.toFixed(3)} / ${map.relaxed.toFixed(3)}  ` +
      hints.map((h, i) => `@${thresholds[i]}: ${h.right}/${h.shown} ${((100 * h.recall) | 0).toString()}%`).join('  '),
  );
  return { map, hints };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: npx tsx scripts/argkp-train.ts <kpm_data folder> [--write]');
  const vectors = parseWordVectors(readFileSync(new URL(`../public${WORD_VECTORS_PATH}`, import.meta.url)));
  const splits = { train: loadArgKp(folder, 'train'), dev: loadArgKp(folder, 'dev') };
  const thresholds = [0.6, 0.7, 0.75, 0.8, 0.825, 0.85, 0.875, 0.9];
  const all = FEATURE_NAMES.map((_, j) => j);
  const vectorFeatures = FEATURE_NAMES.flatMap((name, j) => (/meaning|vector/.test(name) ? [j] : []));
  const models: Record<string, SimilarityModel> = {};
  for (const [label, table, use] of [
    ['withVectors', vectors, all],
    ['wordsOnly', null, all.filter((j) => !vectorFeatures.includes(j))],
  ] as const) {
    const pairs = { train: pairsOf(splits.train, table), dev: pairsOf(splits.dev, table) };
    // Trained on the topics as they are and shrunk to a few dozen responses and to a dozen, as topics
    // in the app often are (how far a response stands out depends on how many there are).
    const smaller = TOPIC_SIZES.flatMap((size) => pairsOf(splits.train, table, size));
    const model = fit(trainingRows([...pairs.train, ...smaller]), use, LAMBDA);
    console.log(`${label}: weights ${model.weights.map((w) => w.toFixed(2)).join(' ')}, bias ${model.bias.toFixed(2)}`);
    // Each fold of training topics measured with a scorer learned on the other folds: new topics.
    const topics = [...new Set(splits.train.arguments.map((a) => a.topic))].sort();
    let heldOut = { strict: 0, relaxed: 0 };
    for (let fold = 0; fold < FOLDS; fold++) {
      const inFold = new Set(topics.filter((_, i) => i % FOLDS === fold));
      const foldModel = fit(trainingRows([...pairs.train, ...smaller].filter((p) => !inFold.has(p.topic))), use, LAMBDA);
      const foldSplit = { ...splits.train, arguments: splits.train.arguments.filter((a) => inFold.has(a.topic)) };
      const map = meanAveragePrecision(
        foldSplit,
        predictions(
          foldSplit,
          pairs.train.filter((p) => inFold.has(p.topic)),
          foldModel,
        ),
      );
      heldOut = { strict: heldOut.strict + map.strict / FOLDS, relaxed: heldOut.relaxed + map.relaxed / FOLDS };
    }
    console.log(`  training topics held out (${FOLDS} folds): mAP ${heldOut.strict.toFixed(3)} / ${heldOut.relaxed.toFixed(3)}`);
    const train = report('  train', splits.train, pairs.train, model, thresholds);
    const dev = report('  dev  ', splits.dev, pairs.dev, model, thresholds);
    console.log('  train and dev together, the hint at each threshold:');
    thresholds.forEach((t, i) => {
      const [a, b] = [train.hints[i]!, dev.hints[i]!];
      const right = a.right + b.right;
      const shown = a.shown + b.shown;
      const told = Math.round(a.recall * a.repeats + b.recall * b.repeats);
      const repeats = a.repeats + b.repeats;
      console.log(
        `    ${t.toFixed(3)}: precision ${right} of ${shown} (${((100 * right) / shown).toFixed(1)}%), recall ${told} of ${repeats} (${((100 * told) / repeats).toFixed(1)}%)`,
      );
    });
    models[label] = model;
  }
  if (process.argv.includes('--write')) {
    const row = (m: SimilarityModel) =>
      `{\n    bias: ${m.bias.toFixed(6)},\n    weights: [${m.weights.map((w) => w.toFixed(6)).join(', ')}],\n  }`;
    writeFileSync(
      new URL('../shared/rules/similarity-model.ts', import.meta.url),
      `// The learned scorer of "This was already said": logistic-regression weights over FEATURE_NAMES
// (shared/rules/similarity.ts), learned on the ArgKP-2021 training split (its topics whole and shrunk
// to a dozen responses). Written by
//   npx tsx scripts/argkp-train.ts <kpm_data folder> --write
// (do not edit by hand; run it again after changing a feature). One set for when the word vectors are
// loaded, one for shared words alone (its vector features weigh 0).
export interface SimilarityModel {
  bias: number;
  weights: readonly number[];
}

export const SIMILARITY_MODEL: { withVectors: SimilarityModel; wordsOnly: SimilarityModel } = {
  withVectors: ${row(models.withVectors!)},
  wordsOnly: ${row(models.wordsOnly!)},
};
`,
    );
  }
}
