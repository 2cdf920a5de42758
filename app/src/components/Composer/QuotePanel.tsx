// Quote search panel: searches the topic's responses from 3 characters on and
// offers suggestions truncated to 60 characters, or says (politely, aria-live) that
// nothing matches.
import { useState } from 'react';
import { QUOTE_SUGGESTION_CHARS } from '../../../../shared/constants';
import { truncate } from '../../../../shared/rules/truncate';
import { useResponseSearch, type QuotedResponse } from '../../hooks/useResponseSearch';
import { usePlainText } from '../FormattedText/useMarkdown';

interface QuotePanelProps {
  topicId: string;
  excludeId?: string;
  idPrefix: string;
  onPick: (quote: QuotedResponse) => void;
}

export function QuotePanel({ topicId, excludeId, idPrefix, onPick }: QuotePanelProps) {
  const [text, setText] = useState('');
  const { results, query } = useResponseSearch(topicId, text, excludeId);
  const plain = usePlainText();
  return (
    <div className="composer-panel">
      <label htmlFor={`${idPrefix}-quote-search`}>Search a response to quote</label>
      <input
        id={`${idPrefix}-quote-search`}
        className="input"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Type at least 3 characters"
        autoComplete="off"
      />
      <p className="composer-no-match muted" aria-live="polite" data-testid="quote-no-match">
        {query !== null && results.length === 0 && `No response matches “${query}”.`}
      </p>
      {results.length > 0 && (
        <ul className="composer-suggestions" aria-label="Quote suggestions">
          {results.map((r) => (
            <li key={r.id}>
              <button type="button" className="composer-suggestion" onClick={() => onPick(r)}>
                {truncate(plain(r.content), QUOTE_SUGGESTION_CHARS)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
