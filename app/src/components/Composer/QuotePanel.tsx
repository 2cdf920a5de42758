// Quote search panel: searches the topic's responses from 3 characters on and
// offers suggestions truncated to 60 characters.
import { useEffect, useState } from 'react';
import { MIN_SEARCH_LENGTH, QUOTE_SUGGESTION_CHARS, SEARCH_DEBOUNCE_MS } from '../../../../shared/constants';
import { truncate } from '../../../../shared/rules/truncate';
import type { QuotedResponse } from '../../../../shared/types';
import { getStore } from '../../hooks/store';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';

interface QuotePanelProps {
  topicId: string;
  excludeId?: string;
  idPrefix: string;
  onPick: (quote: QuotedResponse) => void;
}

export function QuotePanel({ topicId, excludeId, idPrefix, onPick }: QuotePanelProps) {
  const [text, setText] = useState('');
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [results, setResults] = useState<QuotedResponse[]>([]);
  useEffect(() => {
    if (query.length < MIN_SEARCH_LENGTH) return setResults([]);
    let live = true;
    getStore().searchResponses(topicId, query)
      .then((found) => live && setResults(found.filter((r) => r.id !== excludeId).map(({ id, content, username }) => ({ id, content, username }))))
      .catch(() => live && setResults([]));
    return () => { live = false; };
  }, [topicId, query, excludeId]);
  return (
    <div className="composer-panel">
      <label htmlFor={`${idPrefix}-quote-search`}>Search a response to quote</label>
      <input id={`${idPrefix}-quote-search`} className="input" value={text} onChange={(e) => setText(e.target.value)}
        placeholder="Type at least 3 characters" autoComplete="off" />
      {results.length > 0 && (
        <ul className="composer-suggestions" aria-label="Quote suggestions">
          {results.map((r) => (
            <li key={r.id}>
              <button type="button" className="composer-suggestion" onClick={() => onPick(r)}>
                {truncate(r.content, QUOTE_SUGGESTION_CHARS)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
