// The sources page (GET /api/sources?include=citations, paged with limit/offset and filtered on
// the server). Not replicated: each read asks the server while online. The unfiltered list, as far
// as it was paged, is kept with its fetch time as a local document of the public database, so the
// page reads offline (the filter then runs on that copy) and goes with the public data when removed.
import { Observable, distinctUntilChanged, switchMap } from 'rxjs';
import type { SourceCitation, SourceListing } from '../../../shared/types.js';
import { CruxError } from '../../../shared/errors.js';
import type { PublicDb } from './db.js';
import type { Http } from './http.js';
import type { CitationPage, RemoteCopy, SourceList, SourcesQuery } from './api.js';

export const SOURCES_PAGE_SIZE = 50;
export const SOURCES_FETCH_FAILED = 'Failed to fetch sources';
export const SOURCES_FETCH_ERROR = 'An error occurred while fetching sources';
export const SOURCES_OFFLINE = 'You are offline: the sources load when you are back online.';

export const CITATIONS_PAGE_SIZE = 50;

interface Deps {
  http: Http;
  online$: Observable<boolean>;
  publicDb: () => PublicDb;
}

interface Stored {
  value: { items: SourceListing[]; total: number };
  fetchedAt: string;
}

const KEY = 'sources';

/** The offline filter, like the server's: a case-insensitive substring of name, URL or description. */
export function matchesSource(source: SourceListing, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return [source.name, source.url, source.description].some((field) => field?.toLowerCase().includes(needle));
}

export function createSources(deps: Deps) {
  // Pages fetched in this session, by filter, so "Load more" asks only for the next page.
  const fetched = new Map<string, { items: SourceListing[]; total: number }>();

  /** One page of a listing, with the total the server counts (x-total-count). */
  async function fetchPaged<T>(path: string, params: URLSearchParams, offset: number) {
    let res: Response;
    try {
      res = await deps.http.request(`${path}?${params.toString()}`);
    } catch (error) {
      // Not reached (offline, no answer) or refused: the page says which, in its own words.
      throw new Error(error instanceof CruxError && error.code === 'unavailable' ? SOURCES_FETCH_ERROR : SOURCES_FETCH_FAILED);
    }
    const items = (await res.json()) as T[];
    const total = Number(res.headers.get('x-total-count') ?? offset + items.length);
    return { items, total: Number.isFinite(total) ? total : offset + items.length };
  }

  function fetchPage(filter: string, offset: number) {
    const params = new URLSearchParams({ include: 'citations', limit: String(SOURCES_PAGE_SIZE), offset: String(offset) });
    if (filter) params.set('filter', filter);
    return fetchPaged<SourceListing>('/sources', params, offset);
  }

  async function fetchList(filter: string, pages: number) {
    const want = pages * SOURCES_PAGE_SIZE;
    let list = fetched.get(filter) ?? { items: [], total: Number.POSITIVE_INFINITY };
    // A list from an earlier visit may have changed: start again when asking for the first page.
    if (pages === 1) list = { items: [], total: Number.POSITIVE_INFINITY };
    while (list.items.length < want && list.items.length < list.total) {
      const page = await fetchPage(filter, list.items.length);
      const seen = new Set(list.items.map((s) => s.id));
      list = { items: [...list.items, ...page.items.filter((s) => !seen.has(s.id))], total: page.total };
      if (page.items.length === 0) break;
    }
    if (!Number.isFinite(list.total)) list = { ...list, total: list.items.length };
    fetched.set(filter, list);
    return list;
  }

  async function readCopy(): Promise<Stored | null> {
    try {
      const doc = await deps.publicDb().getLocal<{ copy: Stored }>(KEY);
      return (doc?.get('copy') as Stored | undefined) ?? null;
    } catch {
      return null;
    }
  }

  async function keepCopy(copy: Stored): Promise<void> {
    try {
      await deps.publicDb().upsertLocal(KEY, { copy });
    } catch {
      // A closed or removed database: the copy is simply not kept.
    }
  }

  function fromCopy(kept: Stored, query: SourcesQuery): SourceList {
    const matching = kept.value.items.filter((s) => matchesSource(s, query.filter));
    const shown = matching.slice(0, query.pages * SOURCES_PAGE_SIZE);
    return { items: shown, total: matching.length, hasMore: shown.length < matching.length };
  }

  function read(query: SourcesQuery, online: boolean) {
    return new Observable<RemoteCopy<SourceList>>((subscriber) => {
      let closed = false;
      const filter = query.filter.trim();
      void (async () => {
        const kept = await readCopy();
        if (closed) return;
        const base = {
          value: kept ? fromCopy(kept, query) : null,
          fetchedAt: kept?.fetchedAt ?? null,
          notFound: false,
        };
        if (!online) {
          subscriber.next({ ...base, loading: false, stale: true, error: kept ? null : SOURCES_OFFLINE });
          return;
        }
        const earlier = fetched.get(filter);
        const quick = earlier
          ? { items: earlier.items.slice(0, query.pages * SOURCES_PAGE_SIZE), total: earlier.total, hasMore: true }
          : base.value;
        subscriber.next({ ...base, value: quick, loading: true, stale: kept !== null, error: null });
        try {
          const list = await fetchList(filter, query.pages);
          const fetchedAt = new Date().toISOString();
          if (!filter) {
            // The unfiltered list as far as it was read: what the page shows offline.
            await keepCopy({ value: { items: list.items, total: list.total }, fetchedAt });
          }
          if (closed) return;
          const shown = list.items.slice(0, query.pages * SOURCES_PAGE_SIZE);
          subscriber.next({
            value: { items: shown, total: list.total, hasMore: shown.length < list.total },
            fetchedAt,
            notFound: false,
            loading: false,
            stale: false,
            error: null,
          });
        } catch (error) {
          if (closed) return;
          const message = error instanceof Error ? error.message : SOURCES_FETCH_ERROR;
          subscriber.next({ ...base, loading: false, stale: true, error: message });
        }
      })();
      return () => {
        closed = true;
      };
    });
  }

  function citations(sourceId: string, offset: number): Promise<CitationPage> {
    const params = new URLSearchParams({ limit: String(CITATIONS_PAGE_SIZE), offset: String(offset) });
    return fetchPaged<SourceCitation>(`/sources/${encodeURIComponent(sourceId)}/responses`, params, offset);
  }

  return {
    citations,
    sources$: (query: SourcesQuery): Observable<RemoteCopy<SourceList>> =>
      deps.online$.pipe(
        distinctUntilChanged(),
        switchMap((online) => read(query, online)),
      ),
  };
}
