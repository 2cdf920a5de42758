// @vitest-environment jsdom
// A response its author changed says "edited" with when, on its meta line (the exact
// time in the <time> element's dateTime and title); a response never edited says nothing of the kind.
// With earlier versions kept, the mark is a button that shows them newest first, each with a word
// diff against the one before, added and removed words marked in words as well as in style.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { ResponseView, TopicView } from '../../../app/src/data/index.js';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_IN } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T15:00:00.000Z') });
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The topic page with `responses` as its roots. */
const renderRows = (topic: TopicView, responses: ResponseView[]) =>
  renderTopicPage(topic, { rootResponses$: () => of(responses), topicResponses$: () => of(responses) });

describe('ResponseItem: the edited mark', () => {
  it('shows "· edited <relative time>" on the meta line of an edited response only', async () => {
    const topic = fakeTopic();
    const edited = fakeResponse({ id: 'edited', topic_id: topic.id, content: 'Changed later', edited_at: '2026-01-01T14:00:00.000Z' });
    const plain = fakeResponse({ id: 'plain', topic_id: topic.id, content: 'Never changed' });
    renderRows(topic, [edited, plain]);
    await screen.findByText('Changed later');
    const row = (id: string) => document.querySelector<HTMLElement>(`[data-response-id="${id}"]`)!;

    const mark = within(row('edited')).getByTestId('response-edited');
    expect(mark.textContent).toBe(' · edited 1 hour ago');
    expect(mark.closest('.response-meta')).not.toBeNull();
    const time = mark.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2026-01-01T14:00:00.000Z');
    // The exact time is the tooltip of a pointer that comes over it.
    fireEvent.pointerEnter(time);
    expect(time.getAttribute('title')).toMatch(/2026/);

    expect(within(row('plain')).queryByTestId('response-edited')).toBeNull();
    expect(row('plain').textContent).not.toMatch(/edited/);
  });

  it('opens the edit history from the mark: versions newest first, each with its word diff', async () => {
    const topic = fakeTopic();
    const edited = fakeResponse({
      id: 'edited',
      topic_id: topic.id,
      content: 'The sky is blue at noon',
      edited_at: '2026-01-01T14:00:00.000Z',
      versions: [
        { version: 1, content: 'The sky is green', created_at: '2026-01-01T12:00:00.000Z' },
        { version: 2, content: 'The sky is blue', created_at: '2026-01-01T13:00:00.000Z' },
      ],
    });
    const early = fakeResponse({ id: 'early', topic_id: topic.id, content: 'Fixed at once', edited_at: '2026-01-01T14:00:00.000Z' });
    renderRows(topic, [edited, early]);
    await screen.findByText('The sky is blue at noon');
    const row = (id: string) => document.querySelector<HTMLElement>(`[data-response-id="${id}"]`)!;

    // An edit that kept no version (within the grace period) is a plain mark.
    expect(within(row('early')).getByTestId('response-edited').textContent).toBe(' · edited 1 hour ago');
    expect(within(row('early')).queryByRole('button', { name: /edited/ })).toBeNull();

    const mark = within(row('edited')).getByRole('button', { name: 'edited 1 hour ago' });
    expect(within(row('edited')).getByTestId('response-edited').textContent).toBe(' · edited 1 hour ago');
    expect(mark.getAttribute('aria-expanded')).toBe('false');
    expect(within(row('edited')).queryByTestId('edit-history')).toBeNull();

    fireEvent.click(mark);
    expect(mark.getAttribute('aria-expanded')).toBe('true');
    const history = within(row('edited')).getByRole('region', { name: 'Edit history' });
    expect(mark.getAttribute('aria-controls')).toBe(history.id);
    const entries = within(history).getAllByRole('listitem');
    expect(entries.map((entry) => entry.querySelector('strong')!.textContent)).toEqual([
      'Current version',
      'Version 2',
      'Version 1 (as posted)',
    ]);
    // Current against version 2: words added, announced as such.
    const current = entries[0]!.querySelector('[data-testid="edit-diff"]')!;
    expect(current.textContent).toBe('The sky is blue[added:  at noon]');
    expect(current.querySelector('ins')!.textContent).toBe('[added:  at noon]');
    expect(current.querySelector('del')).toBeNull();
    // Version 2 against version 1: a word replaced.
    const second = entries[1]!.querySelector('[data-testid="edit-diff"]')!;
    expect(second.querySelector('del')!.textContent).toBe('[removed: green]');
    expect(second.querySelector('ins')!.textContent).toBe('[added: blue]');
    // The first version as posted, with nothing to compare it to.
    expect(entries[2]!.textContent).toContain('The sky is green');
    expect(entries[2]!.querySelector('ins, del')).toBeNull();
    expect(entries[2]!.querySelector('time')!.getAttribute('dateTime')).toBe('2026-01-01T12:00:00.000Z');

    fireEvent.click(within(history).getByRole('button', { name: 'Hide edit history' }));
    expect(within(row('edited')).queryByTestId('edit-history')).toBeNull();
    expect(mark.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(mark);
  });

  it('says which versions between the first and the latest ones are not shown', async () => {
    const topic = fakeTopic();
    const edited = fakeResponse({
      id: 'edited',
      topic_id: topic.id,
      content: 'Now it says four',
      edited_at: '2026-01-01T14:00:00.000Z',
      versions: [
        { version: 1, content: 'It said one', created_at: '2026-01-01T10:00:00.000Z' },
        { version: 4, content: 'It said three', created_at: '2026-01-01T13:00:00.000Z' },
      ],
    });
    renderRows(topic, [edited]);
    await screen.findByText('Now it says four');
    fireEvent.click(screen.getByRole('button', { name: 'edited 1 hour ago' }));
    const entries = within(screen.getByRole('region', { name: 'Edit history' })).getAllByRole('listitem');
    expect(entries.map((entry) => entry.querySelector('strong')!.textContent)).toEqual([
      'Current version',
      'Version 4',
      'Version 1 (as posted)',
    ]);
    expect(entries[1]!.textContent).toContain('Versions 2–3 are not shown: these changes include them.');
    expect(entries[0]!.textContent).not.toContain('not shown');
  });
});
