// Turns what a person typed into a safe SQLite FTS5 query: every word becomes a
// quoted prefix term, so operators and quotes typed by the user are plain text.
// Words split where the index's unicode61 tokenizer splits (anything but letters,
// marks and digits), so "example.com" finds a URL the index holds as example, com.

export function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, 16);
  if (words.length === 0) return null;
  return words.map((word) => `"${word}"*`).join(' ');
}
