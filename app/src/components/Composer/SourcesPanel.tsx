// Sources panel: URL required and trimmed; name and description are
// disabled while the URL matches an already added source; removal is by URL.
import { useState } from 'react';
import type { NewSource } from '../../hooks/useCreateResponse';
import { useSourceSuggestions, type SourceSuggestion } from '../../hooks/useSourceSuggestions';

export const SOURCE_URL_REQUIRED = 'Please enter a source URL.';

interface SourcesPanelProps {
  /** When set, sources already cited in this topic are suggested from 3 characters on. */
  topicId?: string;
  sources: NewSource[];
  onChange: (sources: NewSource[]) => void;
  idPrefix: string;
}

export function SourcesPanel({ topicId, sources, onChange, idPrefix }: SourcesPanelProps) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const trimmedUrl = url.trim();
  const alreadyAdded = sources.some((s) => s.url === trimmedUrl);
  const { suggestions, clear: clearSuggestions } = useSourceSuggestions(topicId, url);

  function pick(source: SourceSuggestion) {
    setUrl(source.url);
    setName(source.name ?? '');
    setDescription(source.description ?? '');
    clearSuggestions();
  }

  function add() {
    if (!trimmedUrl) return setError(SOURCE_URL_REQUIRED);
    setError(null);
    if (alreadyAdded) return;
    onChange([...sources, { url: trimmedUrl, name: name.trim() || null, description: description.trim() || null }]);
    setUrl('');
    setName('');
    setDescription('');
  }

  return (
    <div className="composer-panel">
      <div className="field">
        <label htmlFor={`${idPrefix}-source-url`}>Source URL</label>
        <input
          id={`${idPrefix}-source-url`}
          className="input"
          type="url"
          value={url}
          placeholder="https://…"
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
      </div>
      {suggestions.length > 0 && (
        <ul className="composer-suggestions" aria-label="Source suggestions">
          {suggestions.map((s) => (
            <li key={s.url}>
              <button type="button" className="composer-suggestion" onClick={() => pick(s)}>
                {s.name ? `${s.name} — ${s.url}` : s.url}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor={`${idPrefix}-source-name`}>Source name (optional)</label>
        <input
          id={`${idPrefix}-source-name`}
          className="input"
          value={name}
          disabled={alreadyAdded}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-source-description`}>Description (optional)</label>
        <input
          id={`${idPrefix}-source-description`}
          className="input"
          value={description}
          disabled={alreadyAdded}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-small" onClick={add} disabled={alreadyAdded && Boolean(trimmedUrl)}>
        Add source
      </button>
      {sources.length > 0 && (
        <ul className="composer-sources" aria-label="Added sources">
          {sources.map((s) => (
            <li key={s.url}>
              <span className="composer-source-text">{s.name || s.url}</span>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                aria-label={`Remove source ${s.url}`}
                onClick={() => onChange(sources.filter((x) => x.url !== s.url))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
