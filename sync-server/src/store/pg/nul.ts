// PostgreSQL text cannot hold U+0000, which SQLite stores and Crux keeps verbatim (a title or a
// response may contain it). Text going to PostgreSQL is escaped, text coming back unescaped, so
// both engines answer alike: U+E000 (private use) is the escape, "\uE000\uE000" a U+E000 of the
// text and "\uE000\u0001" a NUL. Text with neither (all real text) passes untouched.
const ESCAPE = '\uE000';
const NUL = '\u0000';
const ESCAPED_NUL = ESCAPE + '\u0001';

export function encodeText(text: string): string {
  if (!text.includes(NUL) && !text.includes(ESCAPE)) return text;
  return text.replaceAll(ESCAPE, ESCAPE + ESCAPE).replaceAll(NUL, ESCAPED_NUL);
}

export function decodeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  let decoded = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === ESCAPE && i + 1 < text.length) {
      decoded += text[++i] === ESCAPE ? ESCAPE : NUL;
    } else {
      decoded += char;
    }
  }
  return decoded;
}

/** A query's parameters with their text (and text arrays) escaped. */
export function encodeParams(params: readonly unknown[] | undefined): unknown[] | undefined {
  return params?.map((value) =>
    typeof value === 'string'
      ? encodeText(value)
      : Array.isArray(value)
        ? value.map((item: unknown) => (typeof item === 'string' ? encodeText(item) : item))
        : value,
  );
}

/** A result row with its text columns unescaped (in place: rows are fresh objects from pg). */
export function decodeRow<T>(row: T): T {
  const record = row as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'string' && value.includes(ESCAPE)) record[key] = decodeText(value);
  }
  return row;
}
