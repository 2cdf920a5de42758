// @vitest-environment jsdom
// What keeps a phone's first screen for the arguments: the topic's form is one line until it is
// used (never while it holds a draft or was asked for), and the stance picker with the balance
// bars folds behind one button that still says the counts. (The folding itself is CSS for narrow
// screens; topic-calm.test.ts measures it in Chromium at 390 px.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer } from '../../../app/src/components/Composer/Composer';
import { StandingDisclosure } from '../../../app/src/components/StandingDisclosure/StandingDisclosure';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => session.current,
}));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

function TopicForm({ focusSignal = 0 }: { focusSignal?: number }) {
  const [type, setType] = useState<'for' | 'against' | 'neutral'>('for');
  return <Composer topicId="t1" parentId={null} replyingTo="Tea?" type={type} onType={setType} focusSignal={focusSignal} compact />;
}

const form = () => screen.getByRole('form', { name: 'Add a response' });

describe("the topic's form on the first screen", () => {
  it('is one line until the box is chosen, then stays open', () => {
    renderWithData(<TopicForm />);
    expect(form().classList.contains('composer-compact')).toBe(true);
    // Its labels and the sign-in note stay in the document (they describe the box).
    expect(screen.getByLabelText('Your response')).toBeTruthy();
    fireEvent.focus(screen.getByLabelText('Your response'));
    expect(form().classList.contains('composer-compact')).toBe(false);
    fireEvent.blur(screen.getByLabelText('Your response'));
    expect(form().classList.contains('composer-compact')).toBe(false);
  });

  it('opens when Agree / Disagree / Discuss asks for it', () => {
    renderWithData(<TopicForm focusSignal={1} />);
    expect(form().classList.contains('composer-compact')).toBe(false);
  });

  it('opens by itself when a draft is brought back', async () => {
    session.current = SIGNED_IN;
    const loadDraft = vi.fn(async (key: string) => ({ key, text: 'Half a thought', extra: {}, updated_at: '2026-01-01T12:00:00.000Z' }));
    renderWithData(<TopicForm />, fakeData({ loadDraft, uid$: of('uid-ada') }));
    await waitFor(() => expect(screen.getByLabelText<HTMLTextAreaElement>('Your response').value).toBe('Half a thought'));
    expect(form().classList.contains('composer-compact')).toBe(false);
  });

  it('a reply form is never compact', () => {
    renderWithData(<Composer topicId="t1" parentId="r1" replyingTo="Tea?" type="for" onType={() => {}} />);
    expect(screen.getByRole('form', { name: 'Reply' }).classList.contains('composer-compact')).toBe(false);
  });
});

describe('the folded stance and balance', () => {
  it("says the counts and the viewer's stance on its button, and opens and closes its block", () => {
    render(
      <StandingDisclosure counts={{ agree: 3, disagree: 1, unsure: 0 }} mine="disagree">
        <p>the picker and the bars</p>
      </StandingDisclosure>,
    );
    const toggle = screen.getByRole('button', { name: /Stances/ });
    expect(toggle.textContent).toContain('you: I disagree');
    expect(toggle.textContent).toContain('✔ 3 agree · ✖ 1 disagree · ? 0 unsure');
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(body.textContent).toBe('the picker and the bars');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(body.classList.contains('is-open')).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(body.classList.contains('is-open')).toBe(true);
    fireEvent.click(toggle);
    expect(body.classList.contains('is-open')).toBe(false);
  });

  it('names no stance for a visitor', () => {
    render(
      <StandingDisclosure counts={{ agree: 0, disagree: 0, unsure: 0 }} mine={null}>
        <p>bars</p>
      </StandingDisclosure>,
    );
    expect(screen.getByRole('button', { name: /Stances/ }).textContent).not.toContain('you:');
  });
});
