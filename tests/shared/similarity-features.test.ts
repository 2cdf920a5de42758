// The learned scorer's inputs for "This was already said" (shared/rules/similarity.ts): every feature
// has its weight, and the two that look past the pair behave as their names say: how central a
// response's point is in its topic, and the draft's neighbours (a copy of the draft is none).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSimilarityIndex, FEATURE_NAMES } from '../../shared/rules/similarity';
import { SIMILARITY_MODEL } from '../../shared/rules/similarity-model';
import { parseWordVectors, WORD_VECTORS_PATH } from '../../shared/rules/word-vectors';

const vectors = parseWordVectors(readFileSync(new URL(`../../public${WORD_VECTORS_PATH}`, import.meta.url)));
const feature = (name: (typeof FEATURE_NAMES)[number]) => FEATURE_NAMES.indexOf(name);

// One point made five times in other words, and two points made once.
const TOPIC = [
  'Ticket fares pay for a large share of the running costs of the buses.',
  'Without fares the bus company could not cover its operating costs.',
  'Fares fund much of what it costs to run the buses every day.',
  'The money from tickets keeps the buses running; take it away and costs go unpaid.',
  'Bus fares are what pays the drivers and the fuel, the running costs.',
  'Free buses would draw drivers out of their cars and cut city traffic.',
  'A ticket machine on every bus slows boarding at busy stops.',
];

describe('the scorer has a weight for each feature', () => {
  it('both sets of weights are as long as the list of features, and shared words alone weigh no meaning', () => {
    expect(SIMILARITY_MODEL.withVectors.weights).toHaveLength(FEATURE_NAMES.length);
    expect(SIMILARITY_MODEL.wordsOnly.weights).toHaveLength(FEATURE_NAMES.length);
    FEATURE_NAMES.forEach((name, j) => {
      if (/meaning|vector/.test(name)) expect(SIMILARITY_MODEL.wordsOnly.weights[j]).toBe(0);
    });
  });
});

describe('how central a response is, and the draft’s neighbours', () => {
  const index = buildSimilarityIndex(TOPIC, String, undefined, vectors);
  /** A response's features as a candidate for `draft`. */
  const featuresOf = (draft: string, position: number) => index.candidates(draft).find((c) => c.position === position)?.features;

  it('a point five responses make is more central than one made once', () => {
    const central = feature("the response's meaning: its cosine with the topic's average meaning");
    const spread = feature("the response's meaning: that cosine less the topic's mean, over its spread");
    const repeated = featuresOf(TOPIC[2]!, 2)!;
    const alone = featuresOf(TOPIC[5]!, 5)!;
    expect(repeated[central]).toBeGreaterThan(alone[central]!);
    expect(repeated[spread]).toBeGreaterThan(0);
    expect(alone[spread]).toBeLessThan(0);
  });

  it('a copy of the draft is no neighbour; responses making its point are, and side with a response that makes it too', () => {
    const count = feature("the draft's neighbours, ln(1 + count)");
    const sideWith = feature("shared words: the response's cosine with each of the draft's neighbours, averaged");
    // The odd point out: its only close response is its own copy.
    expect(featuresOf(TOPIC[6]!, 6)![count]).toBe(0);
    // A draft making the repeated point: its neighbours are the responses that make it.
    const draft = 'Fares cover the running costs of the buses.';
    const same = featuresOf(draft, 0)!;
    expect(same[count]).toBeGreaterThan(0);
    expect(same[sideWith]).toBeGreaterThan(featuresOf(draft, 5)?.[sideWith] ?? 0);
  });
});
