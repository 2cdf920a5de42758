// "This was already said" as a pure rule: normalised words, the TF-IDF cosine, the threshold, and the catch rate
// measured on a labelled set (tests/fixtures/near-copies.ts) and on the demo debates (near-copies made
// from each demo response; the demo's own responses flag each other only where one restates another on purpose).
import { describe, expect, it } from 'vitest';
import {
  buildSimilarityIndex,
  MAX_SIMILAR,
  MIN_SIMILARITY_WORDS,
  normaliseWords,
  SIMILARITY_THRESHOLD,
} from '../../shared/rules/similarity';
import { demoResponseTexts } from '../../sync-server/src/seed/demo';
import { NEAR_COPIES, TOPIC_RESPONSES, UNRELATED } from '../fixtures/near-copies';

const index = buildSimilarityIndex(TOPIC_RESPONSES, (r) => r.content);

describe('normaliseWords', () => {
  it.each([
    { text: 'The Fares!', words: ['far'] },
    { text: 'fare, fares and FARES', words: ['far', 'far', 'far'] },
    { text: 'charging, charged, charge', words: ['charg', 'charg', 'charg'] },
    { text: 'Cities’ buses; taxes', words: ['city', 'bus', 'tax'] },
    { text: 'Café naïve résumé', words: ['caf', 'naiv', 'resum'] },
    { text: 'It is what it is, and I think so too', words: [] },
    { text: 'Don’t drop 2013 — keep numbers', words: ['drop', '2013', 'keep', 'number'] },
  ])('$text → $words', ({ text, words }) => {
    expect(normaliseWords(text)).toEqual(words);
  });
});

describe('similarTo (TF-IDF cosine over one topic)', () => {
  it('scores a text identical to a response 1, and nothing in common 0', () => {
    const [hit] = index.similarTo(TOPIC_RESPONSES[2]!.content);
    expect(hit!.item.id).toBe('funding');
    expect(hit!.similarity).toBeCloseTo(1, 6);
    expect(index.similarTo('Quantum chromodynamics explains gluon confinement nicely', { threshold: 0 })).toEqual([]);
  });

  it('compares nothing shorter than the minimum of normalised words', () => {
    expect(MIN_SIMILARITY_WORDS).toBe(4);
    // Three words of the Tallinn response: too few to be a point.
    expect(index.similarTo('Tallinn fare-free', { threshold: 0 })).toEqual([]);
    expect(index.similarTo('Tallinn fare-free transit residents', { threshold: 0 }).length).toBeGreaterThan(0);
  });

  it('gives at most three, best first, and honours the threshold and the exclusion', () => {
    const all = index.similarTo('free fares transit buses fare city residents', { threshold: 0, limit: 99 });
    expect(all.length).toBeGreaterThan(MAX_SIMILAR);
    const some = index.similarTo('free fares transit buses fare city residents', { threshold: 0 });
    expect(some).toHaveLength(MAX_SIMILAR);
    expect(some.map((m) => m.similarity)).toEqual([...some.map((m) => m.similarity)].sort((a, b) => b - a));
    expect(some.every((m) => m.similarity >= 0 && m.similarity <= 1)).toBe(true);
    const copy = NEAR_COPIES[0]!.text;
    expect(index.similarTo(copy).map((m) => m.item.id)).toContain('tallinn');
    expect(index.similarTo(copy, { exclude: (r) => r.id === 'tallinn' }).map((m) => m.item.id)).not.toContain('tallinn');
    // A near-copy is not the same text: likely the same point, never certain.
    expect(index.similarTo(copy, { threshold: 1 })).toEqual([]);
  });

  it('a text with accents or curly quotes meets its plain-ASCII twin (two paths, the same terms)', () => {
    const accented = buildSimilarityIndex(['Café owners can’t afford the rents downtown anymore'], String);
    expect(accented.similarTo("Cafe owners can't afford the rents downtown anymore")[0]!.similarity).toBeCloseTo(1, 5);
    const plain = buildSimilarityIndex(['Cities charging tolls reduced traffic'], String);
    // The dash takes this one through the Unicode path.
    expect(plain.similarTo('Cities chargING tolls — reduced traffic')[0]!.similarity).toBeCloseTo(1, 5);
  });

  it('an empty topic finds nothing', () => {
    expect(buildSimilarityIndex([], String).similarTo(NEAR_COPIES[0]!.text)).toEqual([]);
  });
});

describe(`catch rate at the threshold (${SIMILARITY_THRESHOLD})`, () => {
  it('labelled set: every near-copy is caught with the response it repeats, no unrelated draft is flagged', () => {
    const caught = NEAR_COPIES.filter((copy) => index.similarTo(copy.text).some((m) => m.item.id === copy.of));
    const falseAlarms = UNRELATED.filter((text) => index.similarTo(text).length > 0);
    // Measured: 12 of 12 caught, 0 of 12 false alarms (docs/COMMON-GROUND.md).
    expect(caught.length / NEAR_COPIES.length).toBe(1);
    expect(falseAlarms).toEqual([]);
    // And the repeated response is the first hint.
    for (const copy of NEAR_COPIES) expect(index.similarTo(copy.text)[0]!.item.id).toBe(copy.of);
  });

  it('the threshold sits in the gap: the weakest near-copy well above it, the closest unrelated draft well below', () => {
    const weakestCopy = Math.min(
      ...NEAR_COPIES.map((copy) => index.similarTo(copy.text, { threshold: 0, limit: 99 }).find((m) => m.item.id === copy.of)!.similarity),
    );
    const closestUnrelated = Math.max(...UNRELATED.map((text) => index.similarTo(text, { threshold: 0 })[0]?.similarity ?? 0));
    expect(weakestCopy).toBeGreaterThan(SIMILARITY_THRESHOLD + 0.05);
    expect(closestUnrelated).toBeLessThan(SIMILARITY_THRESHOLD - 0.05);
  });

  // People repeat a point shortened, reordered or wrapped in words of their own.
  const variants: [string, (text: string) => string][] = [
    [
      'every fourth word dropped, lower case, no punctuation',
      (t) =>
        t
          .split(/\s+/)
          .filter((_, i) => i % 4 !== 3)
          .join(' ')
          .toLowerCase()
          .replace(/[.,:?]/g, ''),
    ],
    [
      'sentences reversed and wrapped',
      (t) =>
        `As someone said, ${t
          .split(/(?<=[.?!])\s+/)
          .reverse()
          .join(' ')} I agree.`,
    ],
    [
      'adjacent words swapped',
      (t) => {
        const w = t.split(/\s+/);
        for (let i = 0; i + 1 < w.length; i += 2) [w[i], w[i + 1]] = [w[i + 1]!, w[i]!];
        return w.join(' ');
      },
    ],
  ];

  it('demo debates: near-copies of each response are caught, the demo responses flag only the point restated on purpose', () => {
    const topics = demoResponseTexts();
    expect(topics.length).toBeGreaterThan(3);
    let copies = 0;
    let caught = 0;
    const falseAlarms: string[] = [];
    const restatedFound: [number, number][] = [];
    for (const topic of topics) {
      const items = topic.texts.map((content, i) => ({ content, i }));
      const demoIndex = buildSimilarityIndex(items, (item) => item.content);
      const restated = (a: number, b: number) => topic.restated.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
      for (const item of items) {
        for (const [, variant] of variants) {
          copies++;
          if (demoIndex.similarTo(variant(item.content)).some((m) => m.item.i === item.i)) caught++;
        }
        // Each demo response makes its own point (but the one repeat): drafting it again flags only itself.
        for (const match of demoIndex.similarTo(item.content, { exclude: (other) => other.i === item.i })) {
          if (restated(item.i, match.item.i)) restatedFound.push([item.i, match.item.i]);
          else falseAlarms.push(item.content);
        }
      }
    }
    // The restated point is caught from both of its texts.
    expect(restatedFound).toHaveLength(2 * topics.reduce((n, topic) => n + topic.restated.length, 0));
    expect(restatedFound.length).toBeGreaterThan(0);
    // Measured: 96 of 96 near-copies caught, no false alarm among the 32 demo responses.
    expect(copies).toBeGreaterThanOrEqual(60);
    expect(caught / copies).toBe(1);
    expect(falseAlarms).toEqual([]);
  });
});
