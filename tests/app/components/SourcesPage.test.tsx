// @vitest-environment jsdom
// /sources: loading, error, empty, filled (name, description, safe external link, citing
// responses), the filter box (asked after the pause), Load more, and the offline copy.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { of, throwError, type Observable } from 'rxjs';
import type { RemoteCopy, SourceList, SourcesQuery } from '../../../app/src/data/index.js';
import { SOURCES_EMPTY, SOURCES_LOADING, SourcesPage } from '../../../app/src/routes/SourcesPage';
import type { SourceListing } from '../../../shared/types';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const iaea: SourceListing = {
  id: 's1',
  url: 'https://www.iaea.org/safety',
  name: 'IAEA safety report',
  description: 'Radiation statistics by year',
  cited_by: [{ id: 'r1', topic_id: 't1', topic_title: 'Is nuclear power safe?', created_at: '2025-01-01T00:00:00.000Z' }],
  cited_count: 3,
};
const plain: SourceListing = { id: 's2', url: 'https://example.com/plain', name: null, description: null, cited_by: [], cited_count: 0 };

function copy(value: SourceList | null, overrides: Partial<RemoteCopy<SourceList>> = {}): RemoteCopy<SourceList> {
  return {
    value,
    fetchedAt: value ? new Date().toISOString() : null,
    loading: false,
    error: null,
    notFound: false,
    stale: false,
    ...overrides,
  };
}

const show = (sources$: (q: SourcesQuery) => Observable<RemoteCopy<SourceList>>) =>
  renderWithData(<SourcesPage />, fakeData({ sources$ }), '/sources');

describe('SourcesPage', () => {
  it('shows the heading, filter box and "Loading sources..." until the first copy', () => {
    renderWithData(<SourcesPage />, fakeData(), '/sources');
    expect(screen.getByRole('heading', { level: 1, name: 'Sources' })).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Filter sources' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(SOURCES_LOADING);
  });

  it('shows the SPEC error text when the fetch failed and there is no copy', () => {
    show(() => of(copy(null, { error: 'Failed to fetch sources', stale: true })));
    expect(screen.getByRole('alert').textContent).toBe('Failed to fetch sources');
  });

  it('shows "Error: …" when the data layer fails', () => {
    show(() => throwError(() => new Error('The database could not open.')));
    expect(screen.getByRole('alert').textContent).toBe('Error: The database could not open.');
  });

  it('says when there are no sources', () => {
    show(() => of(copy({ items: [], total: 0, hasMore: false })));
    expect(screen.getByText(SOURCES_EMPTY)).toBeTruthy();
  });

  it('lists name, description, a safe new-tab link and the responses citing each source', () => {
    show(() => of(copy({ items: [iaea, plain], total: 2, hasMore: false })));
    expect(screen.getByRole('heading', { level: 2, name: 'IAEA safety report' })).toBeTruthy();
    expect(screen.getByText('Radiation statistics by year')).toBeTruthy();
    const link = screen.getByRole('link', { name: /https:\/\/www\.iaea\.org\/safety/ });
    expect(link.getAttribute('href')).toBe('https://www.iaea.org/safety');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByText('Cited in 3 responses:')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Is nuclear power safe?' }).getAttribute('href')).toBe('/topics/t1#response-r1');
    expect(screen.getByRole('button', { name: 'Show 2 more responses' })).toBeTruthy();
    // An unnamed source is titled by its URL.
    expect(screen.getByRole('heading', { level: 2, name: 'https://example.com/plain' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('"Show N more" pages through every citing response, and says when that fails', async () => {
    const citation = (n: number) => ({ id: `r${n}`, topic_id: 't1', topic_title: `Topic ${n}`, created_at: '2025-01-01T00:00:00.000Z' });
    const sourceCitations = vi.fn(async (_id: string, offset: number) =>
      offset === 0 ? { items: [citation(1), citation(2)], total: 3 } : { items: [citation(3)], total: 3 },
    );
    renderWithData(
      <SourcesPage />,
      fakeData({ sources$: () => of(copy({ items: [iaea], total: 1, hasMore: false })), sourceCitations }),
      '/sources',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show 2 more responses' }));
    await screen.findByRole('link', { name: 'Topic 2' });
    expect(sourceCitations).toHaveBeenLastCalledWith('s1', 0);
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 more response' }));
    await screen.findByRole('link', { name: 'Topic 3' });
    expect(sourceCitations).toHaveBeenLastCalledWith('s1', 2);
    expect(screen.getAllByRole('link', { name: /^Topic / })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: /^Show \d+ more/ })).toBeNull();
    cleanup();

    const failing = vi.fn(async () => Promise.reject(new Error('Failed to fetch sources')));
    renderWithData(
      <SourcesPage />,
      fakeData({ sources$: () => of(copy({ items: [iaea], total: 1, hasMore: false })), sourceCitations: failing }),
      '/sources',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show 2 more responses' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the citing responses: Failed to fetch sources');
    expect(screen.getByRole('button', { name: 'Show 2 more responses' })).toBeTruthy();
  });

  it('asks for the next page with Load more', () => {
    const sources$ = vi.fn((q: SourcesQuery) =>
      of(copy({ items: q.pages === 1 ? [iaea] : [iaea, plain], total: 2, hasMore: q.pages === 1 })),
    );
    show(sources$);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(sources$).toHaveBeenLastCalledWith({ filter: '', pages: 2 });
    expect(screen.getByRole('heading', { level: 2, name: 'https://example.com/plain' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters after a 300 ms pause and says when nothing matches', () => {
    vi.useFakeTimers();
    const sources$ = vi.fn((q: SourcesQuery) => of(copy({ items: q.filter ? [] : [iaea], total: q.filter ? 0 : 1, hasMore: false })));
    show(sources$);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter sources' }), { target: { value: ' zzz ' } });
    expect(sources$).not.toHaveBeenCalledWith({ filter: 'zzz', pages: 1 });
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(sources$).toHaveBeenLastCalledWith({ filter: 'zzz', pages: 1 });
    expect(screen.getByText('No sources match "zzz".')).toBeTruthy();
  });

  it('shows the last copy offline with its age', () => {
    show(() => of(copy({ items: [iaea], total: 1, hasMore: false }, { stale: true })));
    expect(screen.getByRole('status').textContent).toMatch(/^Last copy on this device\. Updated/);
    expect(screen.getByText('IAEA safety report')).toBeTruthy();
  });
});
