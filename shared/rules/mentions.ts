// @mentions. Display names may contain spaces, so a mention is plain text: "@" and a
// person's name, matched against the people who can be mentioned (a topic's participants). Nothing
// is marked up in the stored content; the server (who to notify) and the app (which text links to
// whom) both read it with findMentions.

/** A name the server looks up is at most this long after the "@"… */
export const MENTION_MAX_CHARS = 64;
/** …and has at most this many words. */
export const MENTION_MAX_WORDS = 6;
/** Distinct names one response may make the server look up (a wall of "@" costs one bounded query). */
export const MENTION_MAX_CANDIDATES = 200;

export interface MentionPerson {
  uid: string;
  name: string;
}

export interface MentionSpan {
  /** Index of the "@". */
  start: number;
  /** Index just after the name. */
  end: number;
  uid: string;
}

const WORD = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

/** The code point that ends just before `index` (a surrogate pair counts as one). */
function before(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.charAt(index - 1);
}

/** The code point that starts at `index`. */
function at(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? '' : String.fromCodePoint(code);
}

const isWord = (char: string) => char !== '' && WORD.test(char);

/** Whether the "@" at `index` starts a word: at the start, or after a space or punctuation (not "a@b.org"). */
const startsMention = (text: string, index: number) => text[index] === '@' && !isWord(before(text, index));

/** Indexes of the "@"s that start a word. */
function mentionStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) if (startsMention(text, i)) starts.push(i);
  return starts;
}

/**
 * The names each "@" of the content could stand for: the prefixes of the text after it that end at a
 * word boundary, up to MENTION_MAX_CHARS characters and MENTION_MAX_WORDS words ("@Ada Lovelace
 * wrote" → "Ada", "Ada Lovelace", "Ada Lovelace wrote"). Distinct, in order, at most
 * MENTION_MAX_CANDIDATES. The server looks these up, so it reads only the users who could be named.
 */
export function mentionCandidates(content: string): string[] {
  const found = new Set<string>();
  for (const start of mentionStarts(content)) {
    const from = start + 1;
    if (!isWord(at(content, from))) continue; // "@ " or "@@": no name follows
    let words = 1;
    for (let end = from + 1; end <= content.length && end - from <= MENTION_MAX_CHARS; end++) {
      const previous = content[end - 1]!;
      if (previous === '\n' || previous === '\r') break; // a name is on one line
      if (SPACE.test(previous) && !SPACE.test(content[end - 2] ?? '') && ++words > MENTION_MAX_WORDS) break;
      if (isWord(before(content, end)) && !isWord(at(content, end))) {
        found.add(content.slice(from, end));
        if (found.size >= MENTION_MAX_CANDIDATES) return [...found];
      }
    }
  }
  return [...found];
}

/**
 * Where the content names one of `people`: "@" (starting a word) and the person's name, compared
 * case-insensitively, not followed by a letter or digit ("@Ann" is not "@Anna"). The longest name
 * wins ("@Ada Lovelace" names Ada Lovelace, not Ada); with two people of one name, the first listed.
 * In text order, never overlapping.
 */
export function findMentions(content: string, people: readonly MentionPerson[]): MentionSpan[] {
  if (!content.includes('@') || people.length === 0) return [];
  const named = people
    .map((person) => ({ uid: person.uid, name: person.name.trim(), lower: person.name.trim().toLocaleLowerCase() }))
    .filter((person) => person.name.length > 0)
    // Longest first (stable for equal lengths): the first name that fits is the longest.
    .sort((a, b) => b.name.length - a.name.length);
  const spans: MentionSpan[] = [];
  let after = 0;
  for (const start of mentionStarts(content)) {
    if (start < after) continue;
    const from = start + 1;
    const match = named.find(
      (person) =>
        content.slice(from, from + person.name.length).toLocaleLowerCase() === person.lower &&
        !isWord(at(content, from + person.name.length)),
    );
    if (!match) continue;
    after = from + match.name.length;
    spans.push({ start, end: after, uid: match.uid });
  }
  return spans;
}

/** The content as text and mention parts, in order (the app renders the mentions as links). */
export function splitMentions(content: string, spans: readonly MentionSpan[]): ({ text: string } | { text: string; uid: string })[] {
  const parts: ({ text: string } | { text: string; uid: string })[] = [];
  let index = 0;
  for (const span of spans) {
    if (span.start > index) parts.push({ text: content.slice(index, span.start) });
    parts.push({ text: content.slice(span.start, span.end), uid: span.uid });
    index = span.end;
  }
  if (index < content.length) parts.push({ text: content.slice(index) });
  return parts;
}

/**
 * The mention being typed at the caret: the "@" (starting a word) before it on the same line, at most
 * MENTION_MAX_CHARS back, and what follows it up to the caret (may be empty, may hold spaces).
 */
export function mentionAtCaret(content: string, caret: number): { start: number; query: string } | null {
  const from = Math.max(0, caret - MENTION_MAX_CHARS - 1);
  for (let i = caret - 1; i >= from; i--) {
    const char = content[i];
    if (char === '\n' || char === '\r') return null;
    if (char === '@' && startsMention(content, i)) return { start: i, query: content.slice(i + 1, caret) };
  }
  return null;
}

/**
 * The people whose name fits what was typed after the "@", case-insensitively: names starting with
 * it first, then names with a later word starting with it ("@love" finds "Ada Lovelace"); at most `limit`.
 */
export function suggestPeople(people: readonly MentionPerson[], query: string, limit: number): MentionPerson[] {
  const typed = query.toLocaleLowerCase();
  const first: MentionPerson[] = [];
  const later: MentionPerson[] = [];
  for (const person of people) {
    const name = person.name.toLocaleLowerCase();
    if (name.startsWith(typed)) first.push(person);
    else if (typed.trim() && name.split(/\s+/u).some((word, i) => i > 0 && word.startsWith(typed))) later.push(person);
  }
  const byName = (a: MentionPerson, b: MentionPerson) => a.name.localeCompare(b.name);
  return [...first.sort(byName), ...later.sort(byName)].slice(0, limit);
}
