// @vitest-environment jsdom
// "Where do you stand?" in the topic header (signed in and out, before/now, refusals)
// and the balance bars of responses and stances (text alternatives and visible numbers).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { StanceView } from '../../../app/src/data/api';
import { MSG } from '../../../shared/messages';
import { SIGN_IN_TO_STAND } from '../../../app/src/components/WhereIStand/stance-labels';
import { fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
});
afterEach(cleanup);

const topic = fakeTopic({
  id: 't1',
  title: 'Should cities ban cars?',
  stance_agree: 4,
  stance_disagree: 2,
  stance_unsure: 1,
  minds_changed: 3,
});

function stance(overrides: Partial<StanceView> = {}): StanceView {
  return {
    topic_id: 't1',
    stance: 'agree',
    first_stance: 'agree',
    history: [{ stance: 'agree', at: '2026-01-01T00:00:00.000Z' }],
    credits: [],
    isPending: false,
    ...overrides,
  };
}

// The stance is a radio group: radios, never buttons like a reply's Agree / Disagree.
const choice = (name: string) => screen.getByRole('radio', { name });

describe('Where do you stand?', () => {
  it("offers I agree / I disagree / I'm unsure as a radio group and records a change", async () => {
    const setStance = vi.fn(async () => undefined);
    renderTopicPage(topic, { stance$: () => of(stance()), setStance });
    expect(await screen.findByRole('heading', { name: 'Where do you stand?' })).toBeTruthy();
    const group = screen.getByRole('radiogroup', { name: 'Where do you stand?' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['I agree', 'I disagree', "I'm unsure"]);
    expect(within(group).queryAllByRole('button')).toEqual([]);
    expect(choice('I agree').getAttribute('aria-checked')).toBe('true');
    expect(choice('I disagree').getAttribute('aria-checked')).toBe('false');
    expect(choice("I'm unsure").getAttribute('aria-checked')).toBe('false');
    // One Tab stop, the held answer; the arrows move between answers without choosing one.
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.tabIndex),
    ).toEqual([0, -1, -1]);
    choice('I agree').focus();
    fireEvent.keyDown(choice('I agree'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(choice('I disagree'));
    fireEvent.keyDown(choice('I disagree'), { key: 'End' });
    expect(document.activeElement).toBe(choice("I'm unsure"));
    expect(setStance).not.toHaveBeenCalled();
    fireEvent.click(choice('I disagree'));
    await waitFor(() => expect(setStance).toHaveBeenCalledWith('t1', 'disagree'));
    // Pressing the current stance again records nothing.
    fireEvent.click(choice('I agree'));
    expect(setStance).toHaveBeenCalledTimes(1);
  });

  it('with no stance yet, none is pressed', async () => {
    renderTopicPage(topic, { stance$: () => of(null) });
    await screen.findByRole('heading', { name: 'Where do you stand?' });
    for (const name of ['I agree', 'I disagree', "I'm unsure"]) expect(choice(name).getAttribute('aria-checked')).toBe('false');
    // Nothing held: the first answer is the group's Tab stop.
    expect(choice('I agree').tabIndex).toBe(0);
    expect(screen.getByTestId('stance-mine').textContent).toBe('');
  });

  // No blank reserved line under the question. The live region stays (to announce a
  // change) but holds no block, and reserves no line, while there is nothing to say.
  it('renders no empty line under the choices when there is nothing to say', async () => {
    for (const [what, value] of [
      ['no stance yet', null],
      ['a stance never changed', stance()],
    ] as const) {
      renderTopicPage(topic, { stance$: () => of(value) });
      await screen.findByRole('heading', { name: 'Where do you stand?' });
      const region = screen.getByTestId('stance-mine');
      expect(region.getAttribute('aria-live'), what).toBe('polite');
      expect(region.childNodes, what).toHaveLength(0);
      const group = region.closest('.where-i-stand')!;
      // No note line (the class that sets a note's line and margin) waits under the choices.
      expect(group.querySelectorAll('.where-i-stand-note'), what).toHaveLength(0);
      const emptyBlocks = [...group.querySelectorAll('p, div')].filter((el) => el.textContent === '' && el !== region);
      expect(emptyBlocks, what).toEqual([]);
      cleanup();
    }
    // Signed out: the sign-in prompt, and no empty block either.
    session.current = SIGNED_OUT;
    renderTopicPage(topic, { stance$: () => of(null) });
    await screen.findByRole('button', { name: SIGN_IN_TO_STAND });
    expect(screen.getByTestId('stance-mine').childNodes).toHaveLength(0);
  });

  it('shows the before and the now once the stance changed, and how to credit what changed it', async () => {
    const history = [
      { stance: 'agree' as const, at: '2026-01-01T00:00:00.000Z' },
      { stance: 'disagree' as const, at: '2026-01-02T00:00:00.000Z' },
    ];
    renderTopicPage(topic, { stance$: () => of(stance({ stance: 'disagree', history })) });
    await screen.findByText(/You first said Agree; now Disagree\./);
    expect(screen.getByTestId('stance-mine').textContent).toBe(
      'You first said Agree; now Disagree. Did a response change your view? Press “This changed my view” on it (up to 3).',
    );
    // The message is its one paragraph inside the live region.
    expect(screen.getByTestId('stance-mine').querySelectorAll('p')).toHaveLength(1);
  });

  it('says a stance is not sent yet while it waits on this device', async () => {
    renderTopicPage(topic, { stance$: () => of(stance({ isPending: true })) });
    expect((await screen.findByText(/saved on this device, not sent yet/)).textContent).toBe('(saved on this device, not sent yet)');
  });

  it('shows why a stance could not be recorded', async () => {
    renderTopicPage(topic, {
      stance$: () => of(null),
      setStance: async () => {
        throw new Error(MSG.stanceMissing);
      },
    });
    fireEvent.click(await screen.findByRole('radio', { name: "I'm unsure" }));
    expect((await screen.findByRole('alert')).textContent).toBe(MSG.stanceMissing);
  });

  it('signed out: the counts and a prompt to log in, no stance buttons', async () => {
    session.current = SIGNED_OUT;
    renderTopicPage(topic, { stance$: () => of(null) });
    await screen.findByRole('button', { name: SIGN_IN_TO_STAND });
    // Never a second button called just "Sign in" beside the header's.
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(screen.queryByRole('radio', { name: "I'm unsure" })).toBeNull();
    expect(screen.getByRole('img', { name: 'Stances: 4 agree, 2 disagree, 1 unsure' })).toBeTruthy();
    expect(screen.getByTestId('minds-changed').textContent).toBe('3 changed their mind here');
    fireEvent.click(screen.getByRole('button', { name: SIGN_IN_TO_STAND }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});

describe('balance bars', () => {
  it('shows responses by type and stances as images with their numbers, and the numbers in words', async () => {
    renderTopicPage(topic, { responseBalance$: () => of({ for: 3, against: 1, neutral: 2 }) });
    expect(await screen.findByRole('img', { name: 'Responses: 3 agree, 1 disagree, 2 discuss' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Stances: 4 agree, 2 disagree, 1 unsure' })).toBeTruthy();
    expect(screen.getByTestId('response-balance').textContent).toContain('✔ 3 agree · ✖ 1 disagree · ◆ 2 discuss');
    expect(screen.getByTestId('stance-balance').textContent).toContain('4 agree · ✖ 2 disagree · ? 1 unsure · 3 changed their mind here');
    // Segments sized by count; none drawn for a zero.
    const segments = [...screen.getByRole('img', { name: /^Responses/ }).children] as HTMLElement[];
    expect(segments.map((s) => s.style.flexGrow)).toEqual(['3', '1', '2']);
  });

  it('keeps empty bars (no layout jump) while nothing is counted yet', async () => {
    renderTopicPage(fakeTopic({ id: 't2' }));
    const responses = await screen.findByRole('img', { name: 'Responses: 0 agree, 0 disagree, 0 discuss' });
    expect(responses.children).toHaveLength(0);
    expect(screen.getByTestId('minds-changed').textContent).toBe('0 changed their mind here');
  });
});
