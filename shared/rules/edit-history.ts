// A response's edit history: which edits keep the text they replace, how many earlier
// versions travel with the response, and a word diff between two versions for the
// "edited" mark's list. Shared: the server decides what is kept, the app shows it.

/**
 * The grace period after posting: an edit saved within it keeps no version, so fixing a typo
 * right after posting folds into the first version (as Discourse's five-minute window does).
 */
export const EDIT_GRACE_MS = 5 * 60 * 1000;

/**
 * How many of the latest earlier versions a response carries (REST answers, the synced document),
 * besides the text as first posted. The server keeps them all.
 */
export const VERSIONS_SHOWN = 20;

/**
 * The earlier versions that travel with a response (oldest first in, oldest first out): the text as
 * first posted (the lowest version kept) and the last VERSIONS_SHOWN. Twenty-one quick edits cannot
 * push what was first said out of public view, which is what moving the goalposts would need.
 */
export function publicVersions<T extends { version: number }>(versions: readonly T[]): T[] {
  if (versions.length <= VERSIONS_SHOWN + 1) return [...versions];
  return [versions[0]!, ...versions.slice(-VERSIONS_SHOWN)];
}

/** Whether an edit of the content at `editedAt` keeps the text it replaces (outside the grace period). */
export function keepsVersion(createdAt: string, editedAt: string): boolean {
  return Date.parse(editedAt) - Date.parse(createdAt) >= EDIT_GRACE_MS;
}

/** One piece of a word diff: text both versions have, or text only the older (`removed`) or the newer (`added`) has. */
export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** A word and the space after it; a text's leading space is a token with an empty word. */
interface Token {
  word: string;
  space: string;
}

/** The text as tokens: joining each token's word and space gives it back. */
function tokens(text: string): Token[] {
  const found: Token[] = [];
  const leading = /^\s+/.exec(text)?.[0] ?? '';
  if (leading) found.push({ word: '', space: leading });
  for (const match of text.slice(leading.length).matchAll(/(\S+)(\s*)/g)) found.push({ word: match[1]!, space: match[2]! });
  return found;
}

/** Above this many token pairs the diff is not worth its time: the whole text counts as replaced. */
const MAX_CELLS = 4_000_000;

/**
 * The word diff from `older` to `newer` (longest common subsequence of words, compared without
 * the space around them): the parts in reading order, neighbours of one kind merged, a removal
 * before the addition that replaces it. A change of spacing alone shows as that space replaced.
 */
export function wordDiff(older: string, newer: string): DiffPart[] {
  const a = tokens(older);
  const b = tokens(newer);
  const sameWord = (x: Token, y: Token) => x.word === y.word;
  const full = (list: readonly Token[]) => list.map((token) => token.word + token.space).join('');
  // The common head and tail need no table (most edits change a few words in the middle).
  let head = 0;
  while (head < a.length && head < b.length && sameWord(a[head]!, b[head]!)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && sameWord(a[a.length - 1 - tail]!, b[b.length - 1 - tail]!)) tail++;
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let removed = '';
  let added = '';
  const flush = () => {
    push('removed', removed);
    push('added', added);
    removed = '';
    added = '';
  };
  /** The same word in both; its space may differ. */
  const same = (x: Token, y: Token) => {
    flush();
    push('same', x.word);
    if (x.space === y.space) push('same', x.space);
    else {
      removed += x.space;
      added += y.space;
    }
  };
  for (let k = 0; k < head; k++) same(a[k]!, b[k]!);
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length * midB.length > MAX_CELLS) {
    removed += full(midA);
    added += full(midB);
  } else {
    // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..].
    const width = midB.length + 1;
    const lcs = new Uint32Array((midA.length + 1) * width);
    for (let i = midA.length - 1; i >= 0; i--) {
      for (let j = midB.length - 1; j >= 0; j--) {
        lcs[i * width + j] = sameWord(midA[i]!, midB[j]!)
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < midA.length || j < midB.length) {
      if (i < midA.length && j < midB.length && sameWord(midA[i]!, midB[j]!)) {
        same(midA[i++]!, midB[j++]!);
      } else if (j >= midB.length || (i < midA.length && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
        removed += midA[i]!.word + midA[i]!.space;
        i++;
      } else {
        added += midB[j]!.word + midB[j]!.space;
        j++;
      }
    }
  }
  for (let k = tail; k > 0; k--) same(a[a.length - k]!, b[b.length - k]!);
  flush();
  return parts;
}
