// The search-or-create box with its category selector, atop the topic list. While text is
// in the box the parent shows SearchResults instead of the list.
import type { FormEvent } from 'react';
import { CATEGORIES } from '../../../../shared/constants';
import './SearchCreate.css';

interface SearchCreateProps {
  text: string;
  category: string;
  onText: (text: string) => void;
  onCategory: (category: string) => void;
  onCreate: () => void;
  error: string | null;
  disabled: boolean;
}

export function SearchCreate({ text, category, onText, onCategory, onCreate, error, disabled }: SearchCreateProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onCreate();
  }
  return (
    <form className="search-create card" onSubmit={submit} role="search" noValidate>
      <label htmlFor="topic-search" className="visually-hidden">
        Search or create a topic
      </label>
      <input
        id="topic-search"
        className="input search-create-input"
        type="search"
        placeholder="Search topics or start a new debate…"
        value={text}
        onChange={(e) => onText(e.target.value)}
        maxLength={300}
        autoComplete="off"
      />
      <label htmlFor="topic-category" className="visually-hidden">
        Category for a new topic
      </label>
      <select id="topic-category" className="select search-create-select" value={category} onChange={(e) => onCategory(e.target.value)}>
        <option value="">Select category</option>
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        Create
      </button>
      {error && (
        <p className="error-text search-create-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

interface SearchResultsProps {
  text: string;
  signedIn: boolean;
  searching: boolean;
  count: number;
  onCreate: () => void;
  children: React.ReactNode;
}

export function SearchResults({ text, signedIn, searching, count, onCreate, children }: SearchResultsProps) {
  return (
    <section aria-label="Search results" className="search-results">
      <button type="button" className="search-create-entry card" onClick={onCreate}>
        <span aria-hidden="true">+</span> {`Create topic "${text.trim()}"`}
        {signedIn ? '' : ' (login required)'}
      </button>
      {searching ? (
        <p className="status-text" role="status">
          Searching...
        </p>
      ) : count === 0 ? (
        <p className="status-text">No matching topics found.</p>
      ) : (
        children
      )}
    </section>
  );
}
