// Turns what a person typed into a safe SQLite FTS5 query: every word becomes a
// quoted prefix term, so operators and quotes typed by the user are plain text.

export function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .split(/[\s"]+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}_-]+/gu, ''))
    .filter((word) => word.length > 0)
    .slice(0, 16);
  if (words.length === 0) return null;
  return words.map((word) => `"${word}"*`).join(' ');
}
