// The figures "This was already said" is tuned on: the shipped rule on the ArgKP-2021 training and
// dev splits (not vendored; `kpm_data/` of the public IBM/KPA_2021_shared_task repository), with the
// task's official metric and the hint's precision and recall at thresholds around the shipped one.
//   npx tsx scripts/argkp-tune.ts <folder holding arguments_train.csv, ..., labels_dev.csv>
// Only these splits choose weights and the threshold; tests/shared/similarity-argkp.test.ts measures
// the held-out test split once they are chosen (docs/COMMON-GROUND.md).
import { readFileSync } from 'node:fs';
import { buildSimilarityIndex, SIMILARITY_THRESHOLD, type Terms } from '../shared/rules/similarity';
import { parseWordVectors, WORD_VECTORS_PATH } from '../shared/rules/word-vectors';
import { hintRates, loadArgKp, meanAveragePrecision, predict } from '../tests/data/argkp/argkp';

const folder = process.argv[2];
if (!folder) throw new Error('usage: npx tsx scripts/argkp-tune.ts <kpm_data folder>');
const vectors = parseWordVectors(readFileSync(new URL(`../public${WORD_VECTORS_PATH}`, import.meta.url)));
const thresholds = [0.75, 0.775, 0.8, 0.825, 0.85, 0.875, 0.9];
const totals = thresholds.map(() => ({ shown: 0, right: 0, told: 0, repeats: 0 }));

for (const name of ['train', 'dev']) {
  const split = loadArgKp(folder, name);
  const cache = new Map<string, Terms>();
  const predictions = predict(split, (texts, draft, offered) => {
    const positions = new Map(texts.map((text, i) => [text, i]));
    return buildSimilarityIndex(texts, String, cache, vectors).similarTo(draft, {
      threshold: 0,
      limit: 1,
      exclude: (text) => !offered(positions.get(text)!),
    })[0];
  });
  const map = meanAveragePrecision(split, predictions);
  console.log(`${name}: ${split.arguments.length} arguments, mAP strict ${map.strict.toFixed(3)}, relaxed ${map.relaxed.toFixed(3)}`);
  thresholds.forEach((threshold, i) => {
    const hint = hintRates(split, predictions, threshold);
    totals[i]!.shown += hint.shown;
    totals[i]!.right += hint.right;
    totals[i]!.told += Math.round(hint.recall * hint.repeats);
    totals[i]!.repeats += hint.repeats;
  });
}
console.log('train and dev together, the hint at each threshold (* shipped):');
thresholds.forEach((threshold, i) => {
  const { shown, right, told, repeats } = totals[i]!;
  const mark = threshold === SIMILARITY_THRESHOLD ? '*' : ' ';
  console.log(
    `${mark} ${threshold.toFixed(3)}: precision ${right} of ${shown} (${((100 * right) / shown).toFixed(1)}%), recall ${told} of ${repeats} (${((100 * told) / repeats).toFixed(1)}%)`,
  );
});
