// ArgKP-2021 (the key point matching shared task, IBM 2021) read from its CSV files, and its official
// metric: for each argument its best-matching key point of the same topic and stance, then per topic
// and stance the average precision over the top half of the arguments by score, times the share of
// those that match (so a group with few matches cannot score high), averaged over the groups.
// Strict counts the pairs the annotators left undecided as wrong, relaxed as right.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ArgKpArgument {
  id: string;
  text: string;
  topic: string;
  stance: number;
}
export type ArgKpKeyPoint = ArgKpArgument;
export interface ArgKpSplit {
  arguments: ArgKpArgument[];
  keyPoints: ArgKpKeyPoint[];
  /** 1 match, 0 no match, by `${argId} ${keyPointId}`; a pair not here was left undecided. */
  labels: Map<string, 0 | 1>;
}

/** RFC 4180 rows: quoted fields may hold commas, line breaks and doubled quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function records(path: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
  return rows.filter((r) => r.length === header!.length).map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}

/** One split ('train', 'dev' or 'test') from a folder holding its three files. */
export function loadArgKp(dir: string, split: string): ArgKpSplit {
  const args = records(join(dir, `arguments_${split}.csv`)).map((r) => ({
    id: r.arg_id!,
    text: r.argument!,
    topic: r.topic!,
    stance: Number(r.stance),
  }));
  const keyPoints = records(join(dir, `key_points_${split}.csv`)).map((r) => ({
    id: r.key_point_id!,
    text: r.key_point!,
    topic: r.topic!,
    stance: Number(r.stance),
  }));
  const labels = new Map<string, 0 | 1>();
  for (const r of records(join(dir, `labels_${split}.csv`))) labels.set(`${r.arg_id} ${r.key_point_id}`, r.label === '1' ? 1 : 0);
  return { arguments: args, keyPoints, labels };
}

/** Each argument's best key point and its score. */
export interface Prediction {
  argId: string;
  keyPointId: string;
  score: number;
}

/** Average precision as scikit-learn computes it: tied scores enter together. */
function averagePrecision(rows: { label: number; score: number }[]): number {
  const positives = rows.reduce((sum, r) => sum + r.label, 0);
  if (positives === 0) return 0;
  const sorted = [...rows].sort((a, b) => b.score - a.score);
  let ap = 0;
  let tp = 0;
  let lastRecall = 0;
  for (let i = 0; i < sorted.length; i++) {
    tp += sorted[i]!.label;
    if (i + 1 < sorted.length && sorted[i + 1]!.score === sorted[i]!.score) continue;
    const recall = tp / positives;
    ap += (recall - lastRecall) * (tp / (i + 1));
    lastRecall = recall;
  }
  return ap;
}

/** The official mean average precision of `predictions` (one per argument), strict and relaxed. */
export function meanAveragePrecision(split: ArgKpSplit, predictions: readonly Prediction[]): { strict: number; relaxed: number } {
  const byArg = new Map(predictions.map((p) => [p.argId, p]));
  const groups = new Map<string, { strict: number; relaxed: number; score: number }[]>();
  for (const arg of split.arguments) {
    const p = byArg.get(arg.id);
    const label = p ? split.labels.get(`${arg.id} ${p.keyPointId}`) : 0;
    const key = `${arg.topic} ${arg.stance}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push({ strict: label ?? 0, relaxed: label ?? 1, score: p?.score ?? 0 });
  }
  const mean = (pick: 'strict' | 'relaxed') => {
    let sum = 0;
    for (const rows of groups.values()) {
      const top = [...rows].sort((a, b) => b.score - a.score).slice(0, Math.floor(rows.length * 0.5));
      const labelled = top.map((r) => ({ label: r[pick], score: r.score }));
      const hits = labelled.reduce((s, r) => s + r.label, 0);
      sum += top.length === 0 ? 0 : (averagePrecision(labelled) * hits) / top.length;
    }
    return sum / groups.size;
  };
  return { strict: mean('strict'), relaxed: mean('relaxed') };
}

/**
 * Each argument's best key point by a similarity rule, as the composer would find it: the topic's
 * arguments and key points are one topic's responses, the argument is the draft (left out of the
 * index), and only key points of its own stance may be offered.
 */
export function predict(
  split: ArgKpSplit,
  similarity: (
    texts: readonly string[],
    draft: string,
    offered: (position: number) => boolean,
  ) => { position: number; similarity: number } | undefined,
): Prediction[] {
  const out: Prediction[] = [];
  for (const topic of new Set(split.arguments.map((a) => a.topic))) {
    const args = split.arguments.filter((a) => a.topic === topic);
    const keyPoints = split.keyPoints.filter((k) => k.topic === topic);
    for (const arg of args) {
      const responses = [...keyPoints, ...args.filter((other) => other !== arg)];
      const best = similarity(
        responses.map((r) => r.text),
        arg.text,
        (position) => position < keyPoints.length && keyPoints[position]!.stance === arg.stance,
      );
      out.push({ argId: arg.id, keyPointId: best ? responses[best.position]!.id : '', score: best?.similarity ?? 0 });
    }
  }
  return out;
}

/**
 * The hint at a threshold: shown when the best key point scores at or above it, right when that key
 * point is labelled a match (strict: undecided is wrong). Recall: of the arguments that repeat a key
 * point (labelled a match with one), the share shown a right hint.
 */
export function hintRates(split: ArgKpSplit, predictions: readonly Prediction[], threshold: number) {
  const repeats = new Set(
    split.arguments.filter((a) => split.keyPoints.some((k) => split.labels.get(`${a.id} ${k.id}`) === 1)).map((a) => a.id),
  );
  const shown = predictions.filter((p) => p.keyPointId !== '' && p.score >= threshold);
  const right = shown.filter((p) => split.labels.get(`${p.argId} ${p.keyPointId}`) === 1);
  return {
    repeats: repeats.size,
    shown: shown.length,
    right: right.length,
    precision: shown.length === 0 ? 1 : right.length / shown.length,
    recall: right.filter((p) => repeats.has(p.argId)).length / repeats.size,
  };
}
