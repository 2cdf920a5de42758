// How search text becomes words, once for both sides: the server hands the words
// to SQLite FTS5 (tokenizer `unicode61 remove_diacritics 2`), the app matches them
// against the titles on the device when offline. Both split exactly where FTS5
// does (anything but letters, marks and digits: so "e-mail", "snake_case" and
// "self-driving" are two words each), and the app folds case and Latin accents
// the way FTS5 does, so a search finds the same topics online and offline.
// Pinned by tests/shared/rules-both-sides.test.ts against a real FTS5 table.

/** More words than this are ignored (a pasted paragraph must not build a huge query). */
export const MAX_SEARCH_WORDS = 16;

/**
 * The words of a text as the FTS5 index sees them. NFC only: FTS5 does not apply
 * compatibility folding, so NFKC would make "ｆｕｌｌ" or "ﬁsh" unfindable.
 */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFC')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, MAX_SEARCH_WORDS);
}

/** One word as FTS5 compares it: case folded, diacritics of Latin letters removed ("Café" = "cafe", "İ" = "i"). */
export function foldWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/(\p{Script=Latin})[\u0300-\u036f]+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ς/g, 'σ');
}

/** The FTS5 MATCH expression: every word a quoted prefix term, so typed operators and quotes stay plain text. */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  return words.map((word) => `"${word}"*`).join(' ');
}

/** The words of an `ftsQuery` MATCH string, each folded as FTS5 compares it (the other engines' and indexes' view of it). */
export function ftsQueryWords(match: string): string[] {
  const words = [...match.matchAll(/"((?:[^"]|"")*)"\*/g)].map((found) => found[1]!.replace(/""/g, '"'));
  return words.flatMap((word) => searchWords(word).map(foldWord));
}

/** The offline twin of `ftsQuery`: every typed word is the prefix of some word of the title. */
export function titleMatcher(search: string): ((title: string) => boolean) | null {
  const wanted = searchWords(search).map(foldWord);
  if (wanted.length === 0) return null;
  return (title) => {
    const have = searchWords(title).map(foldWord);
    return wanted.every((w) => have.some((h) => h.startsWith(w)));
  };
}
