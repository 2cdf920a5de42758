// Offline topic search over local titles, close to the server's FTS5 query
// (shared/rules/search-query.ts): every typed word is a prefix of a title word,
// case and accents ignored.
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}_-]+/u)
    .filter((word) => word.length > 0);
}

export function titleMatcher(search: string): ((title: string) => boolean) | null {
  const wanted = words(search).slice(0, 16);
  if (wanted.length === 0) return null;
  return (title) => {
    const have = words(title);
    return wanted.every((w) => have.some((h) => h.startsWith(w)));
  };
}
