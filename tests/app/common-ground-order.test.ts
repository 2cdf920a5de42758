// The topic page's "Common ground" order as the data layer computes it from the local store.
import { describe, expect, it } from 'vitest';
import { commonGroundOrder, createCommonGroundOrderer } from '../../app/src/data/common-ground-order.js';
import { fakeResponse } from '../fixtures/fake-data.js';

const root = (id: string, upvotes_agree: number, upvotes_disagree: number) => fakeResponse({ id, upvotes_agree, upvotes_disagree });

describe('common-ground order', () => {
  it('puts the response both sides approve first; equal scores keep the default order', () => {
    const roots = [root('a', 0, 0), root('b', 5, 0), root('c', 4, 4), root('d', 5, 5), root('e', 0, 5)];
    expect(commonGroundOrder(roots, { agree: 5, disagree: 5 }).map((r) => r.id)).toEqual(['d', 'c', 'a', 'b', 'e']);
  });

  it('scores 0 for everyone while a side has no participants (the default order stays)', () => {
    const roots = [root('a', 0, 0), root('b', 3, 3), root('c', 1, 0)];
    expect(commonGroundOrder(roots, { agree: 3, disagree: 0 }).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('gives back the same array while nothing it shows changed', () => {
    const reorder = createCommonGroundOrderer();
    const roots = [root('a', 0, 0), root('b', 2, 2)];
    const first = reorder(roots, { agree: 2, disagree: 2 });
    expect(reorder(roots, { agree: 2, disagree: 2 })).toBe(first);
    expect(reorder([...roots], { agree: 2, disagree: 2 })).toBe(first);
    expect(reorder(roots, { agree: 2, disagree: 9 }).map((r) => r.id)).toEqual(['b', 'a']);
  });
});
