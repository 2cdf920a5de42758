// The word-vector table of "This was already said" (public/word-vectors-1.bin, derived from GloVe by
// scripts/build-word-vectors.ts): its size stays within the asset budget, it parses to unit vectors
// in frequency order, and words of like meaning sit closer than unrelated ones.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWordVectors, WORD_VECTORS_PATH } from '../../shared/rules/word-vectors';

const file = new URL(`../../public${WORD_VECTORS_PATH}`, import.meta.url);
const vectors = parseWordVectors(readFileSync(file));

function cosine(a: string, b: string): number {
  const [ra, rb] = [vectors.rows.get(a)!, vectors.rows.get(b)!];
  let dot = 0;
  for (let k = 0; k < vectors.dims; k++) dot += vectors.data[ra * vectors.dims + k]! * vectors.data[rb * vectors.dims + k]!;
  return dot;
}

describe('word vectors', () => {
  it('20,000 words × 100 numbers, well under the 25 MB asset budget', () => {
    expect(statSync(file).size).toBeLessThan(3_000_000);
    expect(vectors.rows.size).toBe(20_000);
    expect(vectors.dims).toBe(100);
    expect(vectors.data).toHaveLength(20_000 * 100);
  });

  it('rows are unit vectors; commoner words weigh less', () => {
    for (const word of ['the', 'government', 'fare', 'suffering']) expect(cosine(word, word)).toBeCloseTo(1, 4);
    expect(vectors.rows.get('the')).toBe(0);
    expect(vectors.weight[vectors.rows.get('the')!]!).toBeLessThan(vectors.weight[vectors.rows.get('fare')!]!);
  });

  it('words of like meaning sit closer than unrelated ones', () => {
    expect(cosine('fee', 'charge')).toBeGreaterThan(cosine('fee', 'banana') + 0.2);
    expect(cosine('suffering', 'pain')).toBeGreaterThan(cosine('suffering', 'keyboard') + 0.2);
    expect(cosine('cheap', 'inexpensive')).toBeGreaterThan(cosine('cheap', 'elephant') + 0.2);
  });
});
