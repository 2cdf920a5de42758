// The kept pages' bookkeeping (sync-server/src/store/page-cache.ts): a newer version forgets every
// page; a read that started at an older version (its query overtaken by a newer one) neither
// gets nor keeps a page, and does not send the cache back to its version.
import { describe, expect, it } from 'vitest';
import { createPageCache } from '../../sync-server/src/store/page-cache.js';

describe('page cache', () => {
  it('keeps pages per version and hands out copies', () => {
    const pages = createPageCache<number>(10);
    expect(pages.read(1, 'a')).toBeUndefined();
    pages.keep(1, 'a', [1, 2]);
    const first = pages.read(1, 'a')!;
    expect(first).toEqual([1, 2]);
    first.push(3);
    expect(pages.read(1, 'a')).toEqual([1, 2]);
    expect(pages.read(2, 'a')).toBeUndefined();
    pages.keep(2, 'b', [5]);
    expect(pages.read(2, 'b')).toEqual([5]);
  });

  it('an older version is answered by its own query and changes nothing', () => {
    const pages = createPageCache<string>(10);
    expect(pages.read(5, 'a')).toBeUndefined();
    pages.keep(5, 'a', ['at 5']);
    // A read that took version 4 before version 5 was seen.
    expect(pages.read(4, 'a')).toBeUndefined();
    pages.keep(4, 'a', ['at 4']);
    expect(pages.read(5, 'a')).toEqual(['at 5']);
    // A page read at 5 that arrives after 6 was seen is not kept.
    expect(pages.read(6, 'b')).toBeUndefined();
    pages.keep(5, 'b', ['at 5']);
    expect(pages.read(6, 'b')).toBeUndefined();
    expect(pages.read(6, 'a')).toBeUndefined();
  });

  it('keeps at most the given number of pages, the oldest forgotten first', () => {
    const pages = createPageCache<number>(2);
    pages.read(1, 'x');
    pages.keep(1, 'a', [1]);
    pages.keep(1, 'b', [2]);
    pages.keep(1, 'c', [3]);
    expect(pages.read(1, 'a')).toBeUndefined();
    expect(pages.read(1, 'b')).toEqual([2]);
    expect(pages.read(1, 'c')).toEqual([3]);
  });
});
