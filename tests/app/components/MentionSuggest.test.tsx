// @vitest-environment jsdom
// The composer's @mention suggestions: typing "@" and letters lists the topic's
// participants whose name fits; ArrowUp/Down move (wrapping), Enter/Tab or a click insert
// "@Name ", Escape closes; the textbox points at the list for screen readers; the writer is not
// offered themself.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer } from '../../../app/src/components/Composer/Composer';
import { mentionHint } from '../../../app/src/components/Composer/MentionSuggest';
import { MentionText } from '../../../app/src/components/Mentions/MentionText';
import { MentionPeopleContext } from '../../../app/src/hooks/useMentionPeople';
import { renderWithData, SIGNED_IN } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => session.current,
}));

const PEOPLE = [
  { uid: 'uid-ada', name: 'Ada' },
  { uid: 'u-lovelace', name: 'Ada Lovelace' },
  { uid: 'u-adam', name: 'Adam Smith' },
  { uid: 'u-bob', name: 'Bob' },
];

beforeEach(() => {
  session.current = SIGNED_IN;
});
afterEach(cleanup);

function open() {
  renderWithData(
    <MentionPeopleContext.Provider value={PEOPLE}>
      <Composer topicId="t1" parentId={null} replyingTo="Tea?" type="for" onType={() => undefined} />
    </MentionPeopleContext.Provider>,
  );
  return screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your response' });
}
const type = (box: HTMLTextAreaElement, value: string) => fireEvent.change(box, { target: { value } });
const key = (box: HTMLTextAreaElement, k: string) => fireEvent.keyDown(box, { key: k });
const activeOption = (box: HTMLTextAreaElement) => document.getElementById(box.getAttribute('aria-activedescendant') ?? '')?.textContent;

describe('@mention suggestions in the composer', () => {
  it('lists the fitting participants (not the writer), moves with the arrows and inserts with Enter', () => {
    const box = open();
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    expect(screen.queryByRole('listbox')).toBeNull();
    type(box, 'Hi @ad');
    const list = screen.getByRole('listbox', { name: 'People to mention' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['@Ada Lovelace', '@Adam Smith']);
    expect(box.getAttribute('aria-controls')).toBe(list.id);
    expect(activeOption(box)).toBe('@Ada Lovelace');
    expect(screen.getAllByRole('option')[0]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText(mentionHint(2))).toBeTruthy();

    key(box, 'ArrowDown');
    expect(activeOption(box)).toBe('@Adam Smith');
    key(box, 'ArrowDown');
    expect(activeOption(box)).toBe('@Ada Lovelace');
    key(box, 'ArrowUp');
    expect(activeOption(box)).toBe('@Adam Smith');
    key(box, 'Enter');
    expect(box.value).toBe('Hi @Adam Smith ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-controls')).toBeNull();
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
  });

  it('filters as the name goes on, spaces included; Tab inserts; Escape closes and leaves the text', () => {
    const box = open();
    type(box, '@ada l');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['@Ada Lovelace']);
    key(box, 'Tab');
    expect(box.value).toBe('@Ada Lovelace ');

    type(box, '@Ada Lovelace and @b');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['@Bob']);
    key(box, 'Escape');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('@Ada Lovelace and @b');
    // Typing on after Escape keeps it closed; Enter is a new line again.
    type(box, '@Ada Lovelace and @bo');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('a click on a name inserts it; a name nobody has shows no list', () => {
    const box = open();
    type(box, 'I agree with @zed');
    expect(screen.queryByRole('listbox')).toBeNull();
    type(box, 'I agree with @Bo');
    fireEvent.click(screen.getByRole('option', { name: '@Bob' }));
    expect(box.value).toBe('I agree with @Bob ');
  });
});

describe('mentions in a response', () => {
  it("link to the named participants' pages; other text stays text", () => {
    render(
      <MemoryRouter>
        <MentionPeopleContext.Provider value={PEOPLE}>
          <p data-testid="text">
            <MentionText text="Thanks @ada lovelace and @Nobody, mail me at x@bob.org" />
          </p>
        </MentionPeopleContext.Provider>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: '@ada lovelace' });
    expect(link.getAttribute('href')).toBe('/users/u-lovelace');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByTestId('text').textContent).toBe('Thanks @ada lovelace and @Nobody, mail me at x@bob.org');
  });
});
