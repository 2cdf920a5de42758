// The build's own name (the service worker's topic-pages cache) comes from its sources alone:
// the same sources give the same name however often and wherever they are built, so rebuilding
// them (`npm start` builds every time) emits the same service worker and no open page is offered
// "a new version"; any change of a source gives a new name.
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, sourceHash } from '../../scripts/build-id';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout with a few sources, written in `order`. */
function checkout(files: Record<string, string>, order = Object.keys(files)): string {
  const root = mkdtempSync(join(tmpdir(), 'crux-build-id-'));
  made.push(root);
  for (const path of order) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), files[path]!);
  }
  return root;
}

const SOURCES = {
  'app/index.html': '<div id="root"></div>',
  'app/src/main.tsx': 'render()',
  'shared/constants.ts': 'export const A = 1;',
  'public/favicon.svg': '<svg/>',
  'package-lock.json': '{}',
  'vite.config.ts': 'export default {}',
};

describe('sourceHash', () => {
  it('is the same for the same sources, whenever, wherever and in whatever order they were written', () => {
    const first = checkout(SOURCES);
    const second = checkout(SOURCES, Object.keys(SOURCES).reverse());
    expect(sourceHash(first)).toBe(sourceHash(first));
    expect(sourceHash(second)).toBe(sourceHash(first));
    expect(sourceHash(first)).toMatch(/^[0-9a-f]{12}$/);
  });

  it('changes with the content of any source, a new source, or a file moved', () => {
    const base = sourceHash(checkout(SOURCES));
    expect(sourceHash(checkout({ ...SOURCES, 'shared/constants.ts': 'export const A = 2;' }))).not.toBe(base);
    expect(sourceHash(checkout({ ...SOURCES, 'app/src/new.ts': '' }))).not.toBe(base);
    const { 'app/src/main.tsx': main, ...rest } = SOURCES;
    expect(sourceHash(checkout({ ...rest, 'app/src/Main.tsx': main }))).not.toBe(base);
  });

  it('ignores what the build does not read (its output, test files, notes)', () => {
    const root = checkout(SOURCES);
    const before = sourceHash(root);
    writeFileSync(join(root, 'notes.txt'), 'scratch');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'sw.js'), 'built');
    expect(sourceHash(root)).toBe(before);
  });

  it("gives this repository's sources one name, twice, and names only paths that exist", () => {
    const repo = join(import.meta.dirname, '../..');
    expect(sourceHash(repo)).toBe(sourceHash(repo));
    const copy = checkout({});
    for (const input of BUILD_INPUTS) cpSync(join(repo, input), join(copy, input), { recursive: true });
    expect(sourceHash(copy)).toBe(sourceHash(repo));
  });
});
