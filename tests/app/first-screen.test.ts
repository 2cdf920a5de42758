// The kept topic page's first screen as the service worker writes it into the page: the markup in
// the empty root, every style sheet first in the head (the page's own, then the app's of this site,
// never one twice), and the key that ties a screen to the very data it was rendered from.
import { describe, expect, it } from 'vitest';
import { dataHash, embeddedData, firstScreenKey, pageWithFirstScreen } from '../../app/src/service-worker/first-screen';

const DATA = '{"topic":{"id":"t1"}}';
const PAGE =
  '<!doctype html><html><head><meta charset="UTF-8" /><title>Crux</title>' +
  '<script type="module" crossorigin src="/assets/index-a.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-a.css">' +
  `</head><body><div id="root"></div><script type="application/json" id="crux-first-page">${DATA}</script></body></html>`;

describe('a kept page with its first screen', () => {
  it('reads the data block the page carries, and keys the screen by the page and that data', async () => {
    expect(embeddedData(PAGE)).toBe(DATA);
    expect(embeddedData('<div id="root"></div>')).toBeNull();
    const hash = await dataHash(DATA);
    expect(hash).toMatch(/^[\da-f]{64}$/);
    expect(await dataHash(`${DATA} `)).not.toBe(hash);
    expect(firstScreenKey('https://crux.test/topics/t1#response-r1', hash)).toBe(`https://crux.test/topics/t1?crux-first-screen=${hash}`);
  });

  it('puts the markup in the root and every style sheet of this site first in the head, each once', () => {
    const page = pageWithFirstScreen(PAGE, {
      html: '<main><h1>Title $& $1</h1></main>',
      styles: ['/assets/index-a.css', '/assets/TopicPage-b.css', 'https://elsewhere.test/x.css', '/assets/x.css?<script>'],
    });
    expect(page).toContain('<div id="root"><main><h1>Title $& $1</h1></main></div>');
    expect(page).toContain(
      '<meta charset="UTF-8" /><link rel="stylesheet" crossorigin href="/assets/index-a.css">' +
        '<link rel="stylesheet" crossorigin href="/assets/TopicPage-b.css"><title>Crux</title>',
    );
    expect(page.match(/rel="stylesheet"/g)).toHaveLength(2);
    expect(page).not.toContain('elsewhere.test');
    expect(page).toContain(`id="crux-first-page">${DATA}</script>`);
  });
});
