// The preloads a topic's first-visit page carries, read from the build's manifest: the topic page's
// chunk, what it imports, and the Markdown renderer's chunk (the page waits for it so its rows paint
// formatted), minus what the shell already loads.
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
  it("preloads the topic page's chunks and the Markdown renderer's, never what the shell loads", () => {
    const links = topicPagePreloads(MANIFEST, SHELL);
    const files = [...links.matchAll(/href="\/([^"]+)"/g)].map((m) => m[1]);
    expect(files).toEqual(['assets/TopicPage-t.js', 'assets/tree-r.js', 'assets/markdown-m.js', 'assets/marked-k.js']);
    expect(links).toContain('<link rel="modulepreload" crossorigin href="/assets/markdown-m.js">');
  });

  it('without a renderer chunk in the manifest, the topic page alone', () => {
    const { ['../shared/markdown.ts']: _markdown, ...rest } = MANIFEST;
    expect(topicPagePreloads(rest, SHELL)).not.toContain('markdown');
  });
});
