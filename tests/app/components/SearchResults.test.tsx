// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchResults } from '../../../app/src/components/SearchCreate/SearchCreate';
import { validateNewTopic } from '../../../app/src/hooks/useCreateTopic';

afterEach(cleanup);

describe('SearchResults', () => {
  it('offers to create the typed topic, with (login required) when signed out', () => {
    const onCreate = vi.fn();
    render(
      <SearchResults text="  Is tea better  " signedIn={false} searching={false} count={0} onCreate={onCreate}>
        <p>rows</p>
      </SearchResults>,
    );
    const entry = screen.getByRole('button');
    expect(entry.textContent).toContain('Create topic "Is tea better" (login required)');
    fireEvent.click(entry);
    expect(onCreate).toHaveBeenCalledOnce();
    expect(screen.getByText('No matching topics found.')).toBeTruthy();
    expect(screen.queryByText('rows')).toBeNull();
  });

  it('shows Searching... while the search runs, then the rows', () => {
    const { rerender } = render(
      <SearchResults text="tea" signedIn searching count={0} onCreate={() => {}}>
        <p>rows</p>
      </SearchResults>,
    );
    expect(screen.getByRole('button').textContent).toContain('Create topic "tea"');
    expect(screen.getByRole('button').textContent).not.toContain('(login required)');
    expect(screen.getByText('Searching...')).toBeTruthy();
    rerender(
      <SearchResults text="tea" signedIn searching={false} count={2} onCreate={() => {}}>
        <p>rows</p>
      </SearchResults>,
    );
    expect(screen.queryByText('Searching...')).toBeNull();
    expect(screen.getByText('rows')).toBeTruthy();
  });
});

describe('validateNewTopic', () => {
  it.each([
    ['   ', 'Politics', true, 'Topic title cannot be empty.'],
    ['Tea?', 'Politics', false, 'You must be logged in to create a topic.'],
    ['Tea?', '', true, 'Please select a category.'],
    ['Tea?', 'Not a category', true, 'Please select a category.'],
    ['Tea?', 'Culture', true, null],
  ])('%j in %j (signed in %s) → %s', (title, category, signedIn, expected) => {
    expect(validateNewTopic(title, category, signedIn)).toBe(expected);
  });
});
