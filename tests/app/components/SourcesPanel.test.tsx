// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { of } from 'rxjs';
import { useState } from 'react';
import { SOURCE_URL_REQUIRED, SourcesPanel } from '../../../app/src/components/Composer/SourcesPanel';
import type { NewSource } from '../../../app/src/hooks/useCreateResponse';
import { fakeData, fakeResponse } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

function Harness({ initial = [] as NewSource[], topicId }: { initial?: NewSource[]; topicId?: string }) {
  const [sources, setSources] = useState<NewSource[]>(initial);
  return (
    <>
      <SourcesPanel topicId={topicId} sources={sources} onChange={setSources} idPrefix="t" />
      <output data-testid="state">{JSON.stringify(sources)}</output>
    </>
  );
}
const state = (): NewSource[] => JSON.parse(screen.getByTestId('state').textContent);

describe('SourcesPanel', () => {
  it('requires a URL and stores it trimmed with optional name and description', () => {
    renderWithData(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    expect(screen.getByRole('alert').textContent).toBe(SOURCE_URL_REQUIRED);
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    expect(state()).toEqual([]);
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: '  https://example.org/a  ' } });
    fireEvent.change(screen.getByLabelText('Source name (optional)'), { target: { value: ' Example ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    expect(state()).toEqual([{ url: 'https://example.org/a', name: 'Example', description: null }]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Source URL').value).toBe('');
  });

  it('disables name and description while the URL matches an added source', () => {
    renderWithData(<Harness initial={[{ url: 'https://a.example', name: 'A', description: null }]} />);
    const name = screen.getByLabelText<HTMLInputElement>('Source name (optional)');
    const description = screen.getByLabelText<HTMLInputElement>('Description (optional)');
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: ' https://a.example ' } });
    expect(name.disabled).toBe(true);
    expect(description.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: 'https://b.example' } });
    expect(name.disabled).toBe(false);
    expect(description.disabled).toBe(false);
  });

  it('removes by URL', () => {
    renderWithData(
      <Harness
        initial={[
          { url: 'https://a.example', name: 'A' },
          { url: 'https://b.example', name: 'B' },
        ]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove source https://a.example' }));
    expect(state().map((s) => s.url)).toEqual(['https://b.example']);
  });

  it("suggests the topic's own sources first, then the catalogue, one per URL, and fills the form with a pick", async () => {
    const cited = fakeResponse({
      sources: [
        { id: 's1', url: 'https://tea.example/study', name: 'Tea study', description: 'Local' },
        { id: 's2', url: 'https://coffee.example', name: 'Coffee', description: null },
      ],
    });
    const topicResponses$ = vi.fn(() => of([cited]));
    const searchSources = vi.fn(async () => [
      { id: 'c1', url: 'https://tea.example/study', name: 'Catalogue copy', description: null },
      { id: 'c2', url: 'https://tea.example/review', name: 'Tea review', description: 'From the catalogue' },
    ]);
    renderWithData(<Harness topicId="t1" />, fakeData({ topicResponses$, searchSources }));
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: 'tea' } });
    const list = await screen.findByRole('list', { name: 'Source suggestions' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Tea study — https://tea.example/study', 'Tea review — https://tea.example/review']);
    expect(topicResponses$).toHaveBeenCalledWith('t1');
    expect(searchSources).toHaveBeenCalledWith('tea');
    fireEvent.click(within(list).getByRole('button', { name: 'Tea review — https://tea.example/review' }));
    expect(screen.getByLabelText<HTMLInputElement>('Source URL').value).toBe('https://tea.example/review');
    expect(screen.getByLabelText<HTMLInputElement>('Description (optional)').value).toBe('From the catalogue');
    expect(screen.queryByRole('list', { name: 'Source suggestions' })).toBeNull();
  });
});
