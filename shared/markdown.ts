// Formatting of a response's text: a small Markdown subset (links, emphasis, block quotes, lists,
// inline and fenced code, line breaks kept) rendered to HTML by one allow-listed renderer, the same
// in the app, the weekly mail and anything else that shows a formatted text.
//
// Safe by construction rather than by cleaning afterwards:
// - raw HTML is never parsed as HTML: the html tokenizers are off (a tag stays text, escaped), and
//   the html renderer escapes anyway;
// - every text, code and attribute value is HTML-escaped (marked escapes text and code as it reads
//   them; attributes are escaped here);
// - a link keeps its address only when the address literally starts with http://, https:// or
//   mailto: (so "javascript:", "JAVASCRIPT:", "data:", entity-encoded schemes like "javascript&#58;"
//   and relative addresses all render as their text alone), and carries rel="nofollow ugc noopener";
// - images render as a link to their address (or their text), never as <img>; headings, tables and
//   indented code blocks are off, so a plain text with "# ", "|" or indentation reads as before.
// marked reads in linear time and nests no deeper than the text does (a block quote's depth, a list's
// indentation and the length read are capped below), so a long run of asterisks, a deep quote or a
// staircase of nested lists cannot hang the page or the server.
import { Marked, type Token, type Tokens } from 'marked';
import { LIMITS } from './constants.js';
import { findMentions, splitMentions, type MentionPerson } from './rules/mentions.js';

/** The rel every link a user wrote carries: no ranking credit, user content, no window.opener. */
export const USER_LINK_REL = 'nofollow ugc noopener';

/** Quotes and lists nest at most this deep on one line; deeper markers read as text of the innermost. */
export const MAX_QUOTE_DEPTH = 5;

const SAFE_HREF = /^(?:https?:\/\/|mailto:)/i;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The address a link may keep, or null: only http(s) and mailto, checked on the address as written
 * (no control characters or spaces smuggled in) and as a URL the platform can read.
 */
export function safeHref(href: string): string | null {
  const address = href.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!SAFE_HREF.test(address) || /[\u0000-\u0020\u007f]/.test(address)) return null;
  try {
    const url = new URL(address);
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:') return null;
  } catch {
    return null;
  }
  return address;
}

/** A quote or list marker at the start of a line (after others): ">", "-", "+", "*", "1." or "1)". */
const MARKER = String.raw`(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))`;
const TOO_DEEP = new RegExp(String.raw`^((?:[ \t]*${MARKER}){${MAX_QUOTE_DEPTH}}[ \t]*)(>|[-+*]|\d{1,9}(?=[.)]))`, 'gm');

/**
 * A line's quote and list markers past MAX_QUOTE_DEPTH read as text: the first one past it is escaped
 * (\> \- 1\.), so the rest of the line is a paragraph. marked nests one call deeper per marker, so
 * "- - - …" or "> > > …" thousands long would otherwise run out of stack.
 */
function capNesting(text: string): string {
  return text.replace(TOO_DEEP, (_all, kept: string, next: string) => kept + (/\d/.test(next) ? `${next}\\` : `\\${next}`));
}

/**
 * Leading indentation reads as at most this many columns (a tab as four): indentation is what nests a
 * list under the one above it, and marked reads a nested item's lines again at each level, so a
 * staircase of ever deeper items costs the text's length times its depth. Twenty columns still nest
 * ten "- " lists or six "1. " lists; deeper lines join the deepest list allowed.
 */
export const MAX_INDENT = 4 * MAX_QUOTE_DEPTH;

/** A line's start: its indentation and quote markers, what nests a list (or a list in a quote). */
const LINE_START = /^[ \t>]+/gm;
const SPACE_RUN = /[ \t]+/g;

function capIndent(text: string): string {
  return text.replace(LINE_START, (start) =>
    start.replace(SPACE_RUN, (space) => {
      const columns = [...space].reduce((sum, char) => sum + (char === '\t' ? 4 : 1), 0);
      return columns <= MAX_INDENT ? space : ' '.repeat(MAX_INDENT);
    }),
  );
}

/**
 * At most this much of a text reads as Markdown: twice the longest response the server takes, so
 * every stored text reads whole. Anything longer (a text from elsewhere) shows its rest as plain
 * text, so the renderer's work stays bounded whatever it is handed.
 */
export const MAX_MARKDOWN_CHARS = 2 * LIMITS.content;

/** Emphasis and link marks (each of * _ ~ [ ]) read as Markdown per text; later ones read as text. */
export const MAX_MARKS = 200;

const MARKS = '*_~[]';
/** Stand-ins for the marks past the cap (Unicode private use: no meaning to marked, nor to HTML). */
const STAND_IN_BASE = 0xe000;
const STAND_INS = new RegExp(`[\\u${STAND_IN_BASE.toString(16)}-\\u${(STAND_IN_BASE + MARKS.length - 1).toString(16)}]`, 'gu');

/**
 * The text with every mark of a kind past the MAX_MARKS-th swapped for a stand-in (put back as the
 * plain character once rendered): marked's emphasis and link reading grows faster than linear with
 * many unclosed or nested marks, so a flood of them (thousands of asterisks or brackets) is text.
 */
function capMarks(text: string): string {
  const seen = new Array<number>(MARKS.length).fill(0);
  let out = '';
  for (const char of text.replace(STAND_INS, '\ufffd')) {
    const kind = MARKS.indexOf(char);
    out += kind >= 0 && ++seen[kind]! > MAX_MARKS ? String.fromCharCode(STAND_IN_BASE + kind) : char;
  }
  return out;
}

/** The rendered HTML with the stand-ins back as their marks (none of them means anything to HTML). */
const restoreMarks = (html: string) => html.replace(STAND_INS, (c) => MARKS[c.charCodeAt(0) - STAND_IN_BASE]!);

/** A number of four digits or more, then "." or ")", opening a line (after any quotes and indentation). */
const YEAR_AT_LINE_START = /^([ \t>]*\d{4,})(?=[.)](?:[ \t]|$))/gm;

/**
 * "2020. A year to forget." stays a sentence: CommonMark reads up to nine digits and a dot as an
 * ordered list starting there, which turns a year opening a line into a list item numbered 2020.
 * Lists people write count from 1; the dot after four digits or more is escaped, so it reads as text.
 */
const keepYearsAsText = (text: string) => text.replace(YEAR_AT_LINE_START, '$1\\');

/** What marked reads: length, marks, years, quote depth and indentation capped. */
const prepared = (text: string) => capIndent(capNesting(keepYearsAsText(capMarks(text.slice(0, MAX_MARKDOWN_CHARS)))));

/** A text as typed, escaped, its line breaks kept: what cannot or need not be read as Markdown. */
const plainHtml = (text: string) => escapeHtml(text.trim()).replace(/\r?\n/g, '<br>');

interface RenderState {
  people: readonly MentionPerson[];
  /** Inside a link's text: mentions stay text (no link in a link). */
  inLink: number;
}

function linkHtml(href: string, inner: string): string {
  const external = href.toLowerCase().startsWith('mailto:') ? '' : ' target="_blank"';
  return `<a href="${escapeHtml(href)}" rel="${USER_LINK_REL}"${external}>${inner}</a>`;
}

function mentionsHtml(raw: string, state: RenderState): string {
  if (state.inLink > 0 || state.people.length === 0) return escapeHtml(raw);
  return splitMentions(raw, findMentions(raw, state.people))
    .map((part) =>
      'uid' in part
        ? `<a href="/users/${escapeHtml(encodeURIComponent(part.uid))}" class="mention-link" data-testid="mention-link">${escapeHtml(part.text)}</a>`
        : escapeHtml(part.text),
    )
    .join('');
}

const off = () => undefined;

function createMarked(state: RenderState): Marked {
  const marked = new Marked({ gfm: true, breaks: true, async: false });
  marked.use({
    // Returning undefined (not false) turns a rule off: its text is read by the next rule, as text.
    tokenizer: { html: off, tag: off, heading: off, lheading: off, table: off, code: off },
    renderer: {
      html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
      heading({ tokens }: Tokens.Heading) {
        return `<p>${this.parser.parseInline(tokens)}</p>\n`;
      },
      link({ href, tokens }: Tokens.Link) {
        state.inLink++;
        const inner = this.parser.parseInline(tokens);
        state.inLink--;
        const safe = safeHref(href);
        return safe ? linkHtml(safe, inner) : inner;
      },
      image({ href, text }: Tokens.Image) {
        const safe = safeHref(href);
        const label = escapeHtml(text || href);
        return safe && state.inLink === 0 ? linkHtml(safe, label) : label;
      },
      text(token: Tokens.Text | Tokens.Escape | Tokens.Tag) {
        if ('tokens' in token && token.tokens) return this.parser.parseInline(token.tokens);
        // A plain run of text: its source, with any @mentions as links to the people's pages.
        if (token.type === 'text') return mentionsHtml(token.raw, state);
        return token.type === 'escape' ? token.text : escapeHtml(token.text);
      },
      checkbox: () => '',
    },
  });
  return marked;
}

export interface MarkdownOptions {
  /** The people a text's @mentions may name (shared/rules/mentions.ts); none: no mention links. */
  people?: readonly MentionPerson[];
}

/** A text's formatted HTML (block level: paragraphs, quotes, lists). */
export function renderMarkdown(text: string, options: MarkdownOptions = {}): string {
  const marked = createMarked({ people: options.people ?? [], inLink: 0 });
  const rest = text.slice(MAX_MARKDOWN_CHARS).trim();
  try {
    const html = restoreMarks(marked.parse(prepared(text), { async: false })).trim();
    return rest ? `${html}\n<p>${plainHtml(rest)}</p>` : html;
  } catch {
    // Whatever marked cannot read (a nesting past the caps above): the text as it was typed.
    return `<p>${plainHtml(text)}</p>`;
  }
}

/** A short excerpt's formatted HTML on one line (emphasis, code and links; no blocks): for mail. */
export function renderMarkdownInline(text: string, options: MarkdownOptions = {}): string {
  const marked = createMarked({ people: options.people ?? [], inLink: 0 });
  try {
    return restoreMarks(marked.parseInline(capMarks(text.replace(/\s+/g, ' ')), { async: false }));
  } catch {
    return escapeHtml(text.replace(/\s+/g, ' '));
  }
}

/**
 * The distinct addresses a text links to, as the renderer reads it: [text](url), <url>, bare URLs
 * and image addresses, whatever their scheme (an unsafe one still counts against a new account).
 */
export function markdownLinks(text: string): string[] {
  const marked = createMarked({ people: [], inLink: 0 });
  const found = new Set<string>();
  // Walked here with a stack (marked's walkTokens gathers its results in quadratic time).
  let tokens: Token[];
  try {
    tokens = marked.lexer(prepared(text));
  } catch {
    // What marked cannot read: its web addresses, as typed.
    return [...new Set(text.match(/\b(?:https?:\/\/|mailto:|www\.)[^\s<>()]+/gi) ?? [])];
  }
  const stack: Token[] = [...tokens].reverse();
  for (let token = stack.pop(); token; token = stack.pop()) {
    if (token.type === 'link' || token.type === 'image') found.add((token as Tokens.Link).href);
    const children = token.type === 'list' ? (token as Tokens.List).items : 'tokens' in token ? token.tokens : undefined;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return [...found];
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * Characters and line starts that can make Markdown (marks, links, quotes, lists, escapes and
 * entities): a text with none of them renders as its own words in paragraphs.
 */
const MAY_FORMAT = /[*_`~>#[\]!\\|<&]|(?:^|\n)[ \t]*(?:[-+=]|\d+[.)])/;

/**
 * A text's words without their formatting, on one line (for a share card's or an excerpt's plain
 * text): the rendered HTML with its tags taken out and its escapes undone. Exact, because every
 * attribute and text in that HTML is escaped: no ">" but a tag's own ends one. Not HTML: escape it
 * again wherever it goes into a page. A text that cannot make Markdown is not rendered: its words
 * are the same (a long topic asks this of every row).
 */
export function markdownPlainText(text: string): string {
  if (!MAY_FORMAT.test(text)) return text.replace(/\s+/g, ' ').trim();
  return plainTextOfHtml(renderMarkdown(text));
}

/** The words of the renderer's HTML on one line: tags taken out, escapes undone. */
export function plainTextOfHtml(html: string): string {
  return html
    .replace(/<\/?(?:p|blockquote|ul|ol|li|pre|br|hr)\b[^>]*>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!)
    .replace(/\s+/g, ' ')
    .trim();
}
