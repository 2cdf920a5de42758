// @vitest-environment jsdom
// First load: the first screen a first visit's page carries is shown until the local
// store has rows, never after; it answers only the query it was made for; bad data is ignored.
import { describe, expect, it } from 'vitest';
import { Subject, type Observable } from 'rxjs';
import { firstPageReads, readFirstPage } from '../../app/src/data/first-page';
import type { ResponseView, TopicView } from '../../app/src/data';
import { PAGE_SIZE } from '../../shared/constants';
import type { FirstPageData, Response, Topic } from '../../shared/types';
import { fakeResponse, fakeTopic } from '../fixtures/fake-data';

/** The wire shapes the server embeds: the fixtures' views without what only the local store knows. */
const topic = (id: string, title = id): Topic => {
  const { isPending: _p, isSavedOffline: _s, responsesOnDevice: _d, ...wire } = fakeTopic({ id, title });
  return wire;
};
const response = (id: string): Response => {
  const { isPending: _p, ...wire } = fakeResponse({ id, topic_id: 't1' });
  return wire;
};
const view = (t: Topic): TopicView => ({
  ...t,
  stance_agree: 0,
  stance_disagree: 0,
  stance_unsure: 0,
  minds_changed: 0,
  isPending: false,
  isSavedOffline: false,
  responsesOnDevice: true,
});

function collect<T>(source: Observable<T>): T[] {
  const seen: T[] = [];
  source.subscribe((value) => seen.push(value));
  return seen;
}

describe('the first screen of a first visit', () => {
  const data: FirstPageData = { topics: { sort: 'hot', category: null, items: [topic('a'), topic('b')] } };

  it('shows the embedded topics until the local store has rows, then only the store', () => {
    const reads = firstPageReads(data);
    const real = new Subject<TopicView[]>();
    const seen = collect(reads.topics$({ sort: 'hot', limit: 20 }, real));
    expect(seen.at(-1)!.map((t) => t.id)).toEqual(['a', 'b']);
    expect(seen.at(-1)![0]).toMatchObject({ isPending: false, isSavedOffline: false, responsesOnDevice: false });
    real.next([]); // the database is open but has not pulled: not "No topics yet"
    expect(seen.at(-1)!.map((t) => t.id)).toEqual(['a', 'b']);
    real.next([view(topic('b')), view(topic('c'))]);
    expect(seen.at(-1)!.map((t) => t.id)).toEqual(['b', 'c']);
    real.next([]); // once the store has spoken, its empty list is the truth
    expect(seen.at(-1)).toEqual([]);
    // A later visit to the same page (client-side navigation) reads the store alone.
    const again = new Subject<TopicView[]>();
    const later = collect(reads.topics$({ sort: 'hot' }, again));
    expect(later).toEqual([]);
  });

  it('never answers a grown page with the embedded one: the list waits for the store instead of ending', () => {
    const full: FirstPageData = {
      topics: { sort: 'hot', category: null, items: Array.from({ length: PAGE_SIZE }, (_, i) => topic(`t${i}`)) },
    };
    const reads = firstPageReads(full);
    const first = new Subject<TopicView[]>();
    expect(collect(reads.topics$({ sort: 'hot', limit: PAGE_SIZE }, first)).at(-1)).toHaveLength(PAGE_SIZE);
    // Scrolled to the end before the store answered: nothing yet (the page keeps its rows, loading).
    const grown = new Subject<TopicView[]>();
    const seen = collect(reads.topics$({ sort: 'hot', limit: 2 * PAGE_SIZE }, grown));
    expect(seen).toEqual([]);
    grown.next([]); // open, not pulled yet
    expect(seen).toEqual([]);
    const pulled = Array.from({ length: PAGE_SIZE + 5 }, (_, i) => view(topic(`t${i}`)));
    grown.next(pulled);
    expect(seen).toEqual([pulled]);
    // A page that was not full is all there is: a bigger limit still shows it at once.
    const small = firstPageReads(data);
    expect(
      collect(small.topics$({ sort: 'hot', limit: 2 * PAGE_SIZE }, new Subject<TopicView[]>()))
        .at(-1)!
        .map((t) => t.id),
    ).toEqual(['a', 'b']);
  });

  it('answers only the query it was made for', () => {
    const reads = firstPageReads(data);
    for (const query of [{ sort: 'new' as const }, { category: 'Politics' as const }, { search: 'tea' }]) {
      const real = new Subject<TopicView[]>();
      const seen = collect(reads.topics$(query, real));
      expect(seen).toEqual([]);
      real.next([view(topic('z'))]);
      expect(seen.at(-1)!.map((t) => t.id)).toEqual(['z']);
    }
  });

  it('shows the embedded topic and roots on their page until the store knows them', () => {
    const reads = firstPageReads({ topic: topic('t1', 'Tea?'), responses: [response('r1'), response('r2')] });
    const realTopic = new Subject<TopicView | null | undefined>();
    const topics = collect(reads.topic$('t1', realTopic));
    expect(topics.at(-1)?.title).toBe('Tea?');
    realTopic.next(undefined);
    expect(topics.at(-1)?.title).toBe('Tea?');
    realTopic.next(null); // deleted since: the store's answer wins
    expect(topics.at(-1)).toBeNull();

    const realRoots = new Subject<ResponseView[]>();
    const roots = collect(reads.rootResponses$('t1', realRoots));
    expect(roots.at(-1)!.map((r) => [r.id, r.isPending])).toEqual([
      ['r1', false],
      ['r2', false],
    ]);
    realRoots.next([
      {
        ...response('r1'),
        delta_count: 0,
        upvotes_agree: 0,
        upvotes_disagree: 0,
        downvotes_agree: 0,
        downvotes_disagree: 0,
        isPending: false,
      },
    ]);
    expect(roots.at(-1)!.map((r) => r.id)).toEqual(['r1']);
    // Another topic's page is not answered from it.
    const other = new Subject<ResponseView[]>();
    expect(collect(reads.rootResponses$('t2', other))).toEqual([]);
  });

  it("shows the topic's stance counts from its page, not none; a list's rows have none", () => {
    const stances = { topic_id: 't1', agree: 3, disagree: 2, unsure: 1, minds_changed: 1 };
    const reads = firstPageReads({ topic: topic('t1', 'Tea?'), responses: [], stances });
    const shown = collect(reads.topic$('t1', new Subject<TopicView | null | undefined>())).at(-1)!;
    expect([shown.stance_agree, shown.stance_disagree, shown.stance_unsure, shown.minds_changed]).toEqual([3, 2, 1, 1]);
    // Counts of another topic are never lent.
    const mismatched = firstPageReads({ topic: topic('t1', 'Tea?'), responses: [], stances: { ...stances, topic_id: 't9' } });
    const plain = collect(mismatched.topic$('t1', new Subject<TopicView | null | undefined>())).at(-1)!;
    expect([plain.stance_agree, plain.stance_disagree, plain.stance_unsure, plain.minds_changed]).toEqual([0, 0, 0, 0]);
  });

  it('reads the data block once, and ignores a page without one or with broken JSON', () => {
    const page = (body: string) => new DOMParser().parseFromString(`<!doctype html><head>${body}</head>`, 'text/html');
    expect(readFirstPage(page(''))).toBeNull();
    expect(readFirstPage(page('<script type="application/json" id="crux-first-page">{broken</script>'))).toBeNull();
    const json = JSON.stringify(data).replace(/</g, '\\u003c');
    expect(readFirstPage(page(`<script type="application/json" id="crux-first-page">${json}</script>`))).toEqual(data);
  });
});
