// /sources: every source with name, description and link (opened safely in a new
// tab), a filter box, "Load more" paging, and the responses citing each source. The last
// unfiltered copy reads offline, where the filter runs on it. A source shows its newest citing
// responses; "Show all" pages through the rest.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { SourceCitation, SourceListing } from '../../../shared/types';
import { useData } from '../hooks/useData';
import { RemoteState } from '../components/RemoteState/RemoteState';
import { useSources } from '../hooks/useSources';
import './SourcesPage.css';
import { errorMessage } from '../error-message';

export const SOURCES_EMPTY = 'No sources yet.';
export const SOURCES_LOADING = 'Loading sources...';
export const noSourcesMatch = (filter: string) => `No sources match "${filter}".`;

export function SourcesPage() {
  const { filter, appliedFilter, setFilter, loadMore, copy, error } = useSources();
  const body = (
    <RemoteState copy={copy} error={error} loadingText={SOURCES_LOADING}>
      {(list, current) =>
        list.items.length === 0 ? (
          <p className="status-text">{appliedFilter ? noSourcesMatch(appliedFilter) : SOURCES_EMPTY}</p>
        ) : (
          <>
            <p className="muted" aria-live="polite">
              Showing {list.items.length} of {list.total} {list.total === 1 ? 'source' : 'sources'}
            </p>
            <ul className="sources-list">
              {list.items.map((source) => (
                <SourceItem key={source.id} source={source} />
              ))}
            </ul>
            {list.hasMore && (
              <button type="button" className="btn" onClick={loadMore} disabled={current.loading}>
                {current.loading ? 'Loading more...' : 'Load more'}
              </button>
            )}
          </>
        )
      }
    </RemoteState>
  );

  return (
    <main className="page sources-page" id="main">
      <h1>Sources</h1>
      <p className="muted">The sources cited in Crux debates, and the arguments that cite them.</p>
      <div className="sources-filter">
        <label htmlFor="sources-filter">Filter sources</label>
        <input
          id="sources-filter"
          type="search"
          value={filter}
          placeholder="Name, link or description"
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      {body}
    </main>
  );
}

/** The responses citing a source beyond the first few, asked of the server page by page. */
function useAllCitations(source: SourceListing) {
  const data = useData();
  const [extra, setExtra] = useState<{ items: SourceCitation[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = extra ? extra.items : source.cited_by;
  const total = extra ? extra.total : source.cited_count;

  async function loadMore() {
    setLoading(true);
    setError(null);
    try {
      // The first request starts over from 0 so the list is one consistent read, not two.
      const offset = extra ? extra.items.length : 0;
      const page = await data.sourceCitations(source.id, offset);
      const before = extra ? extra.items : [];
      const seen = new Set(before.map((c) => c.id));
      setExtra({ items: [...before, ...page.items.filter((c) => !seen.has(c.id))], total: page.total });
    } catch (err) {
      setError(`Could not load the citing responses: ${errorMessage(err)}`);
    } finally {
      setLoading(false);
    }
  }
  return { shown, total, more: Math.max(0, total - shown.length), loading, error, loadMore };
}

function SourceItem({ source }: { source: SourceListing }) {
  const { shown, total, more, loading, error, loadMore } = useAllCitations(source);
  return (
    <li className="sources-item">
      <h2 className="sources-name">{source.name || source.url}</h2>
      {source.description && <p className="sources-description">{source.description}</p>}
      <p className="sources-link">
        <a href={source.url} target="_blank" rel="noopener noreferrer">
          {source.url}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      {shown.length > 0 ? (
        <div className="sources-cited">
          <p className="sources-cited-title">
            Cited in {total} {total === 1 ? 'response' : 'responses'}:
          </p>
          <ul>
            {shown.map((citation) => (
              <li key={citation.id}>
                <Link to={`/topics/${encodeURIComponent(citation.topic_id)}#response-${citation.id}`}>{citation.topic_title}</Link>
              </li>
            ))}
          </ul>
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          {more > 0 && (
            <button type="button" className="btn btn-small" onClick={() => void loadMore()} disabled={loading} aria-busy={loading}>
              {loading ? 'Loading...' : `Show ${more} more ${more === 1 ? 'response' : 'responses'}`}
            </button>
          )}
        </div>
      ) : (
        <p className="muted">Not cited in any response now.</p>
      )}
    </li>
  );
}
