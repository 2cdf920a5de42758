// The one Markdown renderer (shared/markdown.ts) against the usual attacks, read back as a browser
// would (jsdom): no script, no event handler, no image, no link but http(s)/mailto, every link with
// rel="nofollow ugc noopener"; and plain texts reading as before.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import {
  MAX_INDENT,
  MAX_MARKDOWN_CHARS,
  MAX_MARKS,
  MAX_QUOTE_DEPTH,
  USER_LINK_REL,
  markdownLinks,
  markdownPlainText,
  plainTextOfHtml,
  renderMarkdown,
  renderMarkdownInline,
  safeHref,
} from '../../shared/markdown';

const dom = (html: string) => new JSDOM(`<body>${html}</body>`).window.document.body;

/** Everything a formatted text may never carry, checked on the parsed DOM. */
function expectSafe(html: string) {
  const body = dom(html);
  expect(body.querySelectorAll('script, img, iframe, object, embed, style, svg, math, form, input, base, meta, link')).toHaveLength(0);
  for (const element of body.querySelectorAll('*')) {
    for (const attribute of element.getAttributeNames()) expect(attribute).not.toMatch(/^on/i);
    expect(element.getAttribute('style')).toBeNull();
    expect(element.getAttribute('src')).toBeNull();
  }
  for (const link of body.querySelectorAll('a')) {
    const href = link.getAttribute('href') ?? '';
    expect(href).toMatch(/^(https?:\/\/|mailto:|\/users\/)/i);
  }
  return body;
}

const ATTACKS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<svg onload=alert(1)>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](  javascript:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](javascript&#58;alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](vbscript:msgbox(1))',
  '[x](//evil.example/)',
  '[x](https://a.example/"onmouseover="alert(1))',
  '[x](<https://a.example/" onclick="alert(1)>)',
  '<javascript:alert(1)>',
  '![x](https://a.example/i.png)',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml,<svg onload=alert(1)>)',
  '[![x](https://a.example/i.png)](https://b.example/)',
  '`<script>alert(1)</script>`',
  '```\n<script>alert(1)</script>\n```',
  '<div>\n\n*x*\n\n</div>',
  '<style>body{display:none}</style>',
  '[x][r]\n\n[r]: javascript:alert(1)',
  '**<img src=x onerror=alert(1)>**',
  '> <script>alert(1)</script>',
  '- [x](javascript:alert(1))',
];

describe('renderMarkdown: attacks', () => {
  it.each(ATTACKS)('renders %j safely', (attack) => {
    expectSafe(renderMarkdown(attack));
    expectSafe(renderMarkdownInline(attack));
  });

  it('shows raw HTML as its text, escaped', () => {
    const body = expectSafe(renderMarkdown('<script>alert(1)</script> and <b>bold</b>'));
    expect(body.textContent).toContain('<script>alert(1)</script>');
    expect(body.textContent).toContain('<b>bold</b>');
    expect(body.querySelector('b')).toBeNull();
  });

  it('keeps the text of a refused link, without a link', () => {
    for (const attack of [
      '[click](javascript:alert(1))',
      '[click](data:text/html,x)',
      '[click](JAVASCRIPT:alert(1))',
      '[click](javascript&#58;alert(1))',
    ]) {
      const body = dom(renderMarkdown(attack));
      expect(body.querySelector('a')).toBeNull();
      expect(body.textContent).toContain('click');
    }
  });

  it('never renders an image as <img>: a link to it instead', () => {
    const body = expectSafe(renderMarkdown('![a chart](https://a.example/chart.png)'));
    const link = body.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://a.example/chart.png');
    expect(link.textContent).toBe('a chart');
  });

  it('survives 10,000 asterisks and other floods of marks, with bounded emphasis', () => {
    for (const flood of [
      '*'.repeat(10_000),
      '*a'.repeat(5_000),
      '**'.repeat(2_500) + 'x' + '**'.repeat(2_500),
      '['.repeat(10_000),
      '_a '.repeat(3_333),
    ]) {
      const html = renderMarkdown(flood);
      const body = expectSafe(html);
      expect(body.querySelectorAll('em, strong').length).toBeLessThanOrEqual(MAX_MARKS);
      expect(html).not.toMatch(/[\ue000-\ue0ff]/);
    }
    // Nothing of the text is lost: the marks past the cap show as themselves.
    const stars = dom(renderMarkdown('x ' + '*'.repeat(10_000)));
    expect(stars.textContent).toContain('*'.repeat(10_000));
  });

  it('caps nested quotes 1000 deep at MAX_QUOTE_DEPTH, keeping the rest as text', () => {
    const deep = '> '.repeat(1000) + 'deep';
    const body = expectSafe(renderMarkdown(deep));
    let depth = 0;
    for (let node = body.querySelector('blockquote'); node; node = node.querySelector(':scope > blockquote')) depth++;
    expect(depth).toBe(MAX_QUOTE_DEPTH);
    expect(body.textContent).toContain('> > > deep');
    // Lists too, alone or mixed with quotes, thousands of markers on one line.
    for (const flood of ['- '.repeat(5_000) + 'x', '1. '.repeat(3_333) + 'x', '> - '.repeat(2_500) + 'x', '* '.repeat(5_000) + 'x']) {
      const nested = expectSafe(renderMarkdown(flood));
      expect(nested.querySelector(':is(ul, ol, blockquote) '.repeat(MAX_QUOTE_DEPTH + 1).trim())).toBeNull();
      // Read as Markdown up to the cap (not given up on as plain text).
      expect(nested.querySelector('ul, ol, blockquote')).not.toBeNull();
      expect(nested.textContent).toContain('x');
      expect(markdownLinks(flood)).toEqual([]);
    }
    const lines = Array.from({ length: 1000 }, (_, i) => '>'.repeat(i + 1) + ' x').join('\n');
    expect(
      expectSafe(renderMarkdown(lines)).querySelectorAll('blockquote blockquote blockquote blockquote blockquote blockquote'),
    ).toHaveLength(0);
  });
});

describe('renderMarkdown: lists nested by indentation, and texts past the longest response', () => {
  /** A staircase of items, each indented two columns deeper than the one above, `length` characters long. */
  const staircase = (length: number, marker = '- ') => {
    let text = '';
    for (let depth = 0; text.length < length; depth++) text += `${' '.repeat(2 * depth)}${marker}step ${depth}\n`;
    return text.slice(0, length);
  };

  it('renders a 10,000-character staircase of nested lists, nesting no deeper than the indentation cap allows', () => {
    for (const marker of ['- ', '1. ', '> - ']) {
      const text = staircase(10_000, marker);
      expect(text).toHaveLength(10_000);
      const body = expectSafe(renderMarkdown(text));
      expect(body.querySelector('ul, ol')).not.toBeNull();
      // Every step's words are there, the deep ones in the deepest list allowed.
      expect(body.textContent).toContain('step 0');
      expect(body.textContent).toContain('step 90');
      expect(body.querySelector(':is(ul, ol) '.repeat(MAX_INDENT / 2 + 2).trim())).toBeNull();
      expect(markdownLinks(text)).toEqual([]);
    }
  });

  it('nests lists by indentation as before up to the cap', () => {
    const body = expectSafe(renderMarkdown('- one\n  - two\n    - three'));
    expect(body.querySelector('ul ul ul')!.textContent).toContain('three');
  });

  it('reads only the first MAX_MARKDOWN_CHARS as Markdown; the rest shows as plain text, every word kept', () => {
    const text = 'a'.repeat(MAX_MARKDOWN_CHARS - 2) + '\n\n**tail** words';
    const body = expectSafe(renderMarkdown(text));
    expect(body.querySelector('strong')).toBeNull();
    expect(body.textContent).toContain('**tail** words');
    expect(body.textContent).toContain('a'.repeat(100));
  });
});

describe('renderMarkdown: the subset', () => {
  it('renders emphasis, inline code, quotes and lists', () => {
    const body = expectSafe(renderMarkdown('*soft* **strong** `code`\n\n> quoted\n\n- one\n- two\n\n1. first\n2. second'));
    expect(body.querySelector('em')!.textContent).toBe('soft');
    expect(body.querySelector('strong')!.textContent).toBe('strong');
    expect(body.querySelector('code')!.textContent).toBe('code');
    expect(body.querySelector('blockquote')!.textContent.trim()).toBe('quoted');
    expect(body.querySelectorAll('ul > li')).toHaveLength(2);
    expect(body.querySelectorAll('ol > li')).toHaveLength(2);
  });

  it('gives every link rel="nofollow ugc noopener"; web links open in a new tab, mailto is kept', () => {
    const body = expectSafe(
      renderMarkdown('[site](https://a.example/x?a=1&b=2) https://b.example/y <http://c.example> [mail](mailto:a@b.example)'),
    );
    const links = [...body.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://a.example/x?a=1&b=2',
      'https://b.example/y',
      'http://c.example',
      'mailto:a@b.example',
    ]);
    for (const link of links) expect(link.getAttribute('rel')).toBe(USER_LINK_REL);
    expect(links.slice(0, 3).every((a) => a.getAttribute('target') === '_blank')).toBe(true);
    expect(links[3]!.getAttribute('target')).toBeNull();
  });

  it('reads a year opening a line ("2020. ", "1999) ") as text, not as a list numbered from it', () => {
    for (const text of ['2020. A year to forget.', '1999) The year it began.', '> 1848. Revolutions.', 'Intro\n\n10000. Ten thousand.']) {
      const body = expectSafe(renderMarkdown(text));
      expect(body.querySelector('ol, ul')).toBeNull();
      expect(body.textContent).toContain(text.split('\n').at(-1)!.replace(/^> /, ''));
      expect(body.textContent).not.toContain('\\');
      expect(markdownPlainText(text)).not.toContain('\\');
    }
    // Lists people number themselves still are lists, up to three digits.
    expect(expectSafe(renderMarkdown('1. first\n2. second')).querySelectorAll('ol > li')).toHaveLength(2);
    expect(expectSafe(renderMarkdown('100. hundredth')).querySelector('ol')?.getAttribute('start')).toBe('100');
  });

  it('reads plain texts as before: line breaks, "a * b", "# ", tables and indents stay text', () => {
    const body = expectSafe(renderMarkdown('First line\nsecond line\n\na * b = c\n# not a heading\n| a | b |\n    indented'));
    expect(body.querySelectorAll('br').length).toBeGreaterThanOrEqual(1);
    expect(body.querySelector('h1, h2, table, pre, em')).toBeNull();
    expect(body.textContent).toContain('a * b = c');
    expect(body.textContent).toContain('# not a heading');
    expect(dom(renderMarkdown('Plain words.')).innerHTML.trim()).toBe('<p>Plain words.</p>');
  });

  it('links @mentions to the people named, but not inside a link', () => {
    const people = [{ uid: 'u/1', name: 'Ada Lovelace' }];
    const body = expectSafe(renderMarkdown('Hi @Ada Lovelace, see [@Ada Lovelace](https://a.example)', { people }));
    const mentions = body.querySelectorAll('a.mention-link');
    expect(mentions).toHaveLength(1);
    expect(mentions[0]!.getAttribute('href')).toBe('/users/u%2F1');
    expect(body.querySelectorAll('a a')).toHaveLength(0);
  });
});

describe('markdownLinks', () => {
  it('counts [text](url), bare URLs, autolinks, mail addresses and images, distinct', () => {
    expect(
      markdownLinks(
        '[a](https://a.example) https://b.example <https://c.example> https://a.example ![i](https://d.example/i.png) x@y.example',
      ),
    ).toEqual(['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example/i.png', 'mailto:x@y.example']);
  });

  it('counts refused links too, and none in plain text', () => {
    expect(markdownLinks('[x](javascript:alert(1))')).toHaveLength(1);
    expect(markdownLinks('No links here, a * b.')).toEqual([]);
  });
});

describe('markdownPlainText', () => {
  it('gives the words without their marks, on one line, unescaped', () => {
    expect(markdownPlainText('A **bold** [claim](https://a.example) & <b>more</b>\n\n> quoted\n- item')).toBe(
      'A bold claim & <b>more</b> quoted item',
    );
  });

  it('gives a text that cannot make Markdown its own words, as the renderer would', () => {
    const people = [{ uid: 'u-ada', name: 'Ada' }];
    for (const text of [
      'Plain words, with commas; colons: and a question?',
      'Two lines\nof one paragraph.\n\nAnd a second paragraph.   With spaces.',
      'A link https://a.example/path?q=1 and www.b.example too.',
      'Quotes "double" and \'single\', a percent 50% and a dollar $5.',
      '@Ada said so, in 1999 (not 2000).',
      '  Leading and trailing spaces  ',
    ]) {
      expect(markdownPlainText(text)).toBe(plainTextOfHtml(renderMarkdown(text)));
      expect(markdownPlainText(text)).toBe(plainTextOfHtml(renderMarkdown(text, { people })));
    }
  });

  it('renders a text that may make Markdown', () => {
    for (const text of ['1. first\n2. second', '- a\n- b', 'a_b_c and *d*', 'AT&amp;T', 'x \\* y', '2020. A year.'])
      expect(markdownPlainText(text)).toBe(plainTextOfHtml(renderMarkdown(text)));
  });
});

describe('safeHref', () => {
  it('keeps http, https and mailto only', () => {
    expect(safeHref('https://a.example/')).toBe('https://a.example/');
    expect(safeHref('MAILTO:a@b.example')).toBe('MAILTO:a@b.example');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      '/relative',
      '//host/',
      'https://a b',
      'java\nscript:x',
      'ftp://a.example',
    ])
      expect(safeHref(bad)).toBeNull();
  });
});
