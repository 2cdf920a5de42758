// Truncation with an ellipsis (60 in quote suggestions, 80 in the
// quoted block, 100 in placeholders). Counts code points so emoji never split.

export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}…`;
}

/** The first `max` code points, no ellipsis (notification summaries). */
export function prefix(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}
