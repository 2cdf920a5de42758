// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { SOURCE_URL_REQUIRED, SourcesPanel } from '../../../app/src/components/Composer/SourcesPanel';
import type { NewSource } from '../../../app/src/hooks/store';

afterEach(cleanup);

function Harness({ initial = [] as NewSource[] }) {
  const [sources, setSources] = useState<NewSource[]>(initial);
  return (
    <>
      <SourcesPanel sources={sources} onChange={setSources} idPrefix="t" />
      <output data-testid="state">{JSON.stringify(sources)}</output>
    </>
  );
}
const state = () => JSON.parse(screen.getByTestId('state').textContent!) as NewSource[];

describe('SourcesPanel', () => {
  it('requires a URL and stores it trimmed with optional name and description', () => {
    render(<Harness />);
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
    expect((screen.getByLabelText('Source URL') as HTMLInputElement).value).toBe('');
  });

  it('disables name and description while the URL matches an added source', () => {
    render(<Harness initial={[{ url: 'https://a.example', name: 'A', description: null }]} />);
    const name = screen.getByLabelText('Source name (optional)') as HTMLInputElement;
    const description = screen.getByLabelText('Description (optional)') as HTMLInputElement;
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: ' https://a.example ' } });
    expect(name.disabled).toBe(true);
    expect(description.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Source URL'), { target: { value: 'https://b.example' } });
    expect(name.disabled).toBe(false);
    expect(description.disabled).toBe(false);
  });

  it('removes by URL', () => {
    render(<Harness initial={[{ url: 'https://a.example', name: 'A' }, { url: 'https://b.example', name: 'B' }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove source https://a.example' }));
    expect(state().map((s) => s.url)).toEqual(['https://b.example']);
  });
});
