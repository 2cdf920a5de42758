// /sources (SPEC.md §2): every source with name, description and link (opened safely in a new
// tab), a filter box, "Load more" paging, and the responses citing each source. The last
// unfiltered copy reads offline, where the filter runs on it.
import { Link } from 'react-router-dom';
import type { SourceListing } from '../../../shared/types';
import { RelativeTime } from '../components/RelativeTime/RelativeTime';
import { useSources } from '../hooks/useSources';
import { errorMessage } from './TopicListPage';
import './SourcesPage.css';

export const SOURCES_EMPTY = 'No sources yet.';
export const SOURCES_LOADING = 'Loading sources...';
export const noSourcesMatch = (filter: string) => `No sources match "${filter}".`;

export function SourcesPage() {
  const { filter, appliedFilter, setFilter, loadMore, copy, error } = useSources();
  const list = copy?.value ?? null;

  let body;
  if (error)
    body = (
      <p className="error-text" role="alert">
        Error: {errorMessage(error)}
      </p>
    );
  else if (!copy || (copy.loading && !list))
    body = (
      <p className="status-text" role="status">
        {SOURCES_LOADING}
      </p>
    );
  else
    body = (
      <>
        {copy.error && (
          <p className="error-text" role="alert">
            {copy.error}
          </p>
        )}
        {copy.fetchedAt && copy.stale && !copy.loading && (
          <p className="muted" role="status">
            Last copy on this device. Updated <RelativeTime date={copy.fetchedAt} />
          </p>
        )}
        {list && list.items.length === 0 && <p className="status-text">{appliedFilter ? noSourcesMatch(appliedFilter) : SOURCES_EMPTY}</p>}
        {list && list.items.length > 0 && (
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
              <button type="button" className="btn" onClick={loadMore} disabled={copy.loading}>
                {copy.loading ? 'Loading more...' : 'Load more'}
              </button>
            )}
          </>
        )}
      </>
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

function SourceItem({ source }: { source: SourceListing }) {
  const more = source.cited_count - source.cited_by.length;
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
      {source.cited_by.length > 0 ? (
        <div className="sources-cited">
          <p className="sources-cited-title">
            Cited in {source.cited_count} {source.cited_count === 1 ? 'response' : 'responses'}:
          </p>
          <ul>
            {source.cited_by.map((citation) => (
              <li key={citation.id}>
                <Link to={`/topics/${encodeURIComponent(citation.topic_id)}#response-${citation.id}`}>{citation.topic_title}</Link>
              </li>
            ))}
          </ul>
          {more > 0 && <p className="muted">and {more} more</p>}
        </div>
      ) : (
        <p className="muted">Not cited in any response now.</p>
      )}
    </li>
  );
}
