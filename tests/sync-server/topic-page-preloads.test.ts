// The preloads a topic's first-visit page carries, read from the build's manifest: the topic page's
// chunk and what it imports, minus what the shell already loads; not the Markdown renderer's (the
// first screen comes formatted by the server, and the renderer follows the page).
import { describe, expect, it } from 'vitest';
import { topicPagePreloads } from '../../sync-server/src/routes/first-page.js';

const MANIFEST = {
  'index.html': { file: 'assets/index-a.js', imports: ['_shared-s.js'] },
  '_shared-s.js': { file: 'assets/shared-s.js' },
  'src/routes/TopicPage.tsx': { file: 'assets/TopicPage-t.js', imports: ['_shared-s.js', '_tree-r.js'] },
  '_tree-r.js': { file: 'assets/tree-r.js' },
  '../shared/markdown.ts': { file: 'assets/markdown-m.js', imports: ['_marked-k.js'] },
  '_marked-k.js': { file: 'assets/marked-k.js' },
};
const SHELL =
  '<script type="module" crossorigin src="/assets/index-a.js"></script><link rel="modulepreload" crossorigin href="/assets/shared-s.js">';

describe('topicPagePreloads', () => {
  it("preloads the topic page's chunks, never what the shell loads nor the Markdown renderer's", () => {
    const links = topicPagePreloads(MANIFEST, SHELL);
    const files = [...links.matchAll(/href="\/([^"]+)"/g)].map((m) => m[1]);
    expect(files).toEqual(['assets/TopicPage-t.js', 'assets/tree-r.js']);
    expect(links).toContain('<link rel="modulepreload" crossorigin href="/assets/TopicPage-t.js">');
  });
});
