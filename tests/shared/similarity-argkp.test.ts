// "This was already said" on real arguments no one here wrote: the held-out test split of the
// ArgKP-2021 shared task (tests/data/argkp: 723 crowd arguments, 33 key points, 3 topics). Each
// argument is a draft; its topic's key points and other arguments are the responses; only key points
// of its own stance may be offered. Measured with the task's official metric (mean average precision
// of each argument's best key point, strict and relaxed), and the hint as shipped: at the threshold,
// how many drafts that repeat a key point are shown it (recall) and how many hints are right
// (precision). The rule was tuned on the task's training and dev splits only. Table and what it
// means: docs/COMMON-GROUND.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSimilarityIndex, SIMILARITY_THRESHOLD, type Terms } from '../../shared/rules/similarity';
import { parseWordVectors, WORD_VECTORS_PATH } from '../../shared/rules/word-vectors';
import { hintRates, loadArgKp, meanAveragePrecision, predict } from '../data/argkp/argkp';
import { NEAR_COPIES, TOPIC_RESPONSES, UNRELATED } from '../fixtures/near-copies';

const vectors = parseWordVectors(readFileSync(new URL(`../../public${WORD_VECTORS_PATH}`, import.meta.url)));
const test = loadArgKp(new URL('../data/argkp', import.meta.url).pathname, 'test');

function bestKeyPoints(withVectors: boolean) {
  const cache = new Map<string, Terms>();
  return predict(test, (texts, draft, offered) => {
    const positions = new Map(texts.map((text, i) => [text, i]));
    return buildSimilarityIndex(texts, String, cache, withVectors ? vectors : null).similarTo(draft, {
      threshold: 0,
      limit: 1,
      exclude: (text) => !offered(positions.get(text)!),
    })[0];
  });
}

describe('ArgKP-2021 test split, official metric', () => {
  it('reads the split as published', () => {
    expect(test.arguments).toHaveLength(723);
    expect(test.keyPoints).toHaveLength(33);
    expect(test.labels.size).toBe(3426);
  });

  const withVectors = bestKeyPoints(true);
  const wordsOnly = bestKeyPoints(false);

  it('mean average precision: above the hand-tuned rule (0.573 strict / 0.724 relaxed), words alone and more with their meaning', () => {
    const full = meanAveragePrecision(test, withVectors);
    const lexical = meanAveragePrecision(test, wordsOnly);
    // Measured: 0.647 strict / 0.790 relaxed with the word vectors; 0.591 / 0.742 with shared words only
    // (the scorer before it weighed how central a response is and the draft's neighbours: 0.631 / 0.771
    // and 0.586 / 0.738; the hand-tuned mix before any scorer: 0.573 / 0.724 and 0.511 / 0.656).
    expect(full.strict).toBeGreaterThanOrEqual(0.645);
    expect(full.relaxed).toBeGreaterThanOrEqual(0.785);
    expect(lexical.strict).toBeGreaterThanOrEqual(0.59);
    expect(lexical.relaxed).toBeGreaterThanOrEqual(0.74);
    expect(full.strict).toBeGreaterThan(lexical.strict + 0.04);
  });

  it(`the hint at the shipped threshold (${SIMILARITY_THRESHOLD}): at least 4 hints in 5 are right`, () => {
    const hint = hintRates(test, withVectors, SIMILARITY_THRESHOLD);
    // Measured: 133 hints, 120 right (90.2%); 120 of the 500 drafts that repeat a key point told (24%).
    // The scorer before showed 114, 101 right (88.6%, recall 20.2%); the hand-tuned mix at 0.40 135,
    // 108 right (80%, recall 21.6%); the first rule told 7 of 500.
    expect(hint.repeats).toBe(500);
    expect(hint.precision).toBeGreaterThanOrEqual(0.89);
    expect(hint.right).toBeGreaterThanOrEqual(120);
    expect(hint.recall).toBeGreaterThanOrEqual(0.24);
  });
});

describe('the labelled near-copies with the word vectors too', () => {
  const index = buildSimilarityIndex(TOPIC_RESPONSES, (r) => r.content, undefined, vectors);
  it('every near-copy is caught with the response it repeats first, no unrelated draft is flagged', () => {
    for (const copy of NEAR_COPIES) expect(index.similarTo(copy.text)[0]?.item.id).toBe(copy.of);
    expect(UNRELATED.filter((text) => index.similarTo(text).length > 0)).toEqual([]);
  });

  it('a copy of a response scores 1, a text with no word in common 0', () => {
    expect(index.similarTo(TOPIC_RESPONSES[4]!.content)[0]!.similarity).toBeCloseTo(1, 5);
    expect(index.similarTo('Quantum chromodynamics explains gluon confinement nicely', { threshold: 0 })).toEqual([]);
  });
});
