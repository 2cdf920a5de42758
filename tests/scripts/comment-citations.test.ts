// What `npm run check:comments` reports, on made-up files (the repository's own comments are not
// checked here: the command lists them).
import { describe, expect, it } from 'vitest';
import { commentHits } from '../../scripts/comment-citations.js';

const paths = new Set(['sync-server/src/store/sql.ts', 'docs/SYNC.md', 'app/src/data/db.ts', 'package.json']);
const names = new Set([...paths].map((path) => path.slice(path.lastIndexOf('/') + 1)));
const hits = (path: string, text: string) => commentHits(path, text, paths, names).map((hit) => `${hit.line} ${hit.kind} ${hit.text}`);

describe('comment citations', () => {
  it('finds issue numbers in comments, not in code', () => {
    const source = [
      '// Kept apart (issue 7).',
      "const title = 'issue 12 in a string is not a comment';",
      '/**',
      ' * Issue 23 #3: the queue. Issues 12 and 13 too.',
      ' */',
      'const n = 1; // trailing issue #4',
      'const text = `${n} issue 5 in a template`;',
    ].join('\n');
    expect(hits('app/src/data/x.ts', source)).toEqual(['1 issue issue 7', '4 issue Issue 23', '4 issue Issues 12', '6 issue issue #4']);
  });

  it('finds files the repository does not have, however they are cited', () => {
    const source = [
      '// store/sql.ts, docs/SYNC.md, ./db.ts and package.json exist; DESIGN.md §5 does not,',
      '// nor ../data/gone.ts, app/src/hooks/first-page.ts or /work/shared/SPEC.md.',
      '// Not files: /robots.txt (a URL path), https://example.com/a.ts, Node.js, c.json, migrations/NNN-name.sql.',
    ].join('\n');
    expect(hits('app/src/data/x.ts', source)).toEqual([
      '1 missing-file DESIGN.md',
      '2 missing-file ../data/gone.ts',
      '2 missing-file app/src/hooks/first-page.ts',
      '2 missing-file /work/shared/SPEC.md',
    ]);
  });

  it('reads SQL and CSS comments', () => {
    expect(hits('sync-server/src/store/sqlite/migrations/001-x.sql', "-- issue 14: DESIGN.md\nSELECT 'issue 2';")).toEqual([
      '1 issue issue 14',
      '1 missing-file DESIGN.md',
    ]);
    expect(hits('app/src/styles/x.css', '/* issue 9 */ a { color: red; }')).toEqual(['1 issue issue 9']);
  });
});
