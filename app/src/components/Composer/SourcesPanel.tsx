// Sources panel (SPEC.md §5): URL required and trimmed; name and description are
// disabled while the URL matches an already added source; removal is by URL.
import { useState } from 'react';
import type { NewSource } from '../../hooks/store';

export const SOURCE_URL_REQUIRED = 'Please enter a source URL.';

interface SourcesPanelProps {
  sources: NewSource[];
  onChange: (sources: NewSource[]) => void;
  idPrefix: string;
}

export function SourcesPanel({ sources, onChange, idPrefix }: SourcesPanelProps) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const trimmedUrl = url.trim();
  const alreadyAdded = sources.some((s) => s.url === trimmedUrl);

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
        <input id={`${idPrefix}-source-url`} className="input" type="url" value={url} placeholder="https://…"
          onChange={(e) => setUrl(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } }} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-source-name`}>Source name (optional)</label>
        <input id={`${idPrefix}-source-name`} className="input" value={name} disabled={alreadyAdded} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-source-description`}>Description (optional)</label>
        <input id={`${idPrefix}-source-description`} className="input" value={description} disabled={alreadyAdded}
          onChange={(e) => setDescription(e.target.value)} />
      </div>
      {error && <p className="error-text" role="alert">{error}</p>}
      <button type="button" className="btn btn-small" onClick={add} disabled={alreadyAdded && Boolean(trimmedUrl)}>Add source</button>
      {sources.length > 0 && (
        <ul className="composer-sources" aria-label="Added sources">
          {sources.map((s) => (
            <li key={s.url}>
              <span className="composer-source-text">{s.name || s.url}</span>
              <button type="button" className="btn btn-small btn-ghost" aria-label={`Remove source ${s.url}`}
                onClick={() => onChange(sources.filter((x) => x.url !== s.url))}>Remove</button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
