// @vitest-environment jsdom
// "This was already said" in the composer: after a pause in typing, up to three responses of the topic making
// the same point (shared/rules/similarity.ts over the device's copy), each with "Upvote it instead"
// and "Reply to it" (the text moves to that response's reply box); an unrelated text shows nothing,
// and the writer may still post.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { ResponseView } from '../../../app/src/data/index.js';
import { ALREADY_SAID, REPLY_TO_IT, UPVOTE_INSTEAD, UPVOTED_INSTEAD } from '../../../app/src/components/Composer/AlreadySaid';
import { SIMILARITY_DEBOUNCE_MS } from '../../../shared/rules/similarity';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { NEAR_COPIES, TOPIC_RESPONSES, UNRELATED } from '../../fixtures/near-copies';
import { renderTopicPage } from './topic-page';
import { SIGNED_IN, SIGNED_OUT } from './with-data';

/** A response's text box whose words are `text` (formatted text may wrap them in paragraphs). */
const responseText = (text: string) => (_content: string, element: Element | null) =>
  element?.getAttribute('data-testid') === 'response-content' && element.textContent?.trim() === text;

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => session.current,
}));

beforeEach(() => {
  session.current = SIGNED_IN;
  Element.prototype.scrollIntoView = () => undefined;
});
afterEach(cleanup);

const topic = fakeTopic({ id: 't1', title: 'Should public transport be free?', responses_count: TOPIC_RESPONSES.length });
const RESPONSES: ResponseView[] = TOPIC_RESPONSES.map(({ id, content }) =>
  fakeResponse({ id, topic_id: 't1', content, username: 'Bea', creator_uid: 'uid-bea' }),
);

function renderPage(overrides: Parameters<typeof renderTopicPage>[1] = {}) {
  return renderTopicPage(topic, {
    rootResponses$: () => of(RESPONSES),
    replies$: () => of([]),
    topicResponses$: () => of(RESPONSES),
    ...overrides,
  });
}

const rootBox = () => within(screen.getByRole('form', { name: 'Add a response' })).getByLabelText<HTMLTextAreaElement>('Your response');
const hint = () => screen.queryByRole('region', { name: ALREADY_SAID });
/** Longer than the pause, so a hint that was going to show has shown. */
const afterThePause = () => new Promise((resolve) => setTimeout(resolve, SIMILARITY_DEBOUNCE_MS + 300));

describe('"This was already said"', () => {
  it('shows the response a near-copy repeats after a pause, and nothing for an unrelated point', async () => {
    renderPage();
    await screen.findByText(responseText(TOPIC_RESPONSES[0]!.content));
    fireEvent.change(rootBox(), { target: { value: UNRELATED[0] } });
    await afterThePause();
    expect(hint()).toBeNull();

    fireEvent.change(rootBox(), { target: { value: NEAR_COPIES[2]!.text } });
    const region = await screen.findByRole('region', { name: ALREADY_SAID }, { timeout: 3000 });
    const items = within(region).getAllByRole('listitem');
    expect(items.length).toBeGreaterThanOrEqual(1);
    expect(items.length).toBeLessThanOrEqual(3);
    expect(items[0]!.getAttribute('data-response-id')).toBe(NEAR_COPIES[2]!.of);
    // Each button names what it does, and is described by the response it acts on.
    const upvote = within(items[0]!).getByRole('button', { name: UPVOTE_INSTEAD });
    expect(document.getElementById(upvote.getAttribute('aria-describedby')!)!.textContent).toContain('Fares fund a large share');
    expect(within(items[0]!).getByRole('button', { name: REPLY_TO_IT })).toBeTruthy();
    // Only a hint: the writer may still post.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Post response' }).disabled).toBe(false);

    // Typing on to another point takes the hint away.
    fireEvent.change(rootBox(), { target: { value: UNRELATED[3] } });
    await waitFor(() => expect(hint()).toBeNull(), { timeout: 3000 });
  });

  it('"Upvote it instead" upvotes that response', async () => {
    const toggleVote = vi.fn(async () => true);
    renderPage({ toggleVote });
    await screen.findByText(responseText(TOPIC_RESPONSES[0]!.content));
    fireEvent.change(rootBox(), { target: { value: NEAR_COPIES[8]!.text } });
    const region = await screen.findByRole('region', { name: ALREADY_SAID }, { timeout: 3000 });
    fireEvent.click(within(region).getAllByRole('button', { name: UPVOTE_INSTEAD })[0]!);
    await waitFor(() => expect(toggleVote).toHaveBeenCalledWith('response', 'climate'));
    const pressed = await within(region).findByRole('button', { name: UPVOTED_INSTEAD });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
  });

  it('signed out, "Upvote it instead" opens the sign-in saying why', async () => {
    session.current = SIGNED_OUT;
    const toggleVote = vi.fn(async () => true);
    renderPage({ toggleVote });
    await screen.findByText(responseText(TOPIC_RESPONSES[0]!.content));
    fireEvent.change(rootBox(), { target: { value: NEAR_COPIES[8]!.text } });
    const region = await screen.findByRole('region', { name: ALREADY_SAID }, { timeout: 3000 });
    const upvote = within(region).getAllByRole('button', { name: UPVOTE_INSTEAD })[0]!;
    // Not shown as unavailable: pressing it opens the sign-in.
    expect(upvote.getAttribute('aria-disabled')).not.toBe('true');
    expect(upvote.getAttribute('aria-haspopup')).toBe('dialog');
    fireEvent.click(upvote);
    const dialog = screen.getByRole('dialog', { name: 'Sign in to Crux' });
    expect(within(dialog).getByRole('alert').textContent).toBe('You must be logged in to vote.');
    expect(toggleVote).not.toHaveBeenCalled();
  });

  it('"Reply to it" moves the text into that response\'s reply box, of the same type', async () => {
    renderPage();
    await screen.findByText(responseText(TOPIC_RESPONSES[0]!.content));
    // A Disagree point.
    fireEvent.click(within(screen.getByRole('form', { name: 'Add a response' })).getByRole('button', { name: 'Disagree' }));
    const draft = NEAR_COPIES[6]!.text;
    fireEvent.change(rootBox(), { target: { value: draft } });
    const region = await screen.findByRole('region', { name: ALREADY_SAID }, { timeout: 3000 });
    const item = within(region).getAllByRole('listitem')[0]!;
    expect(item.getAttribute('data-response-id')).toBe('crowding');
    fireEvent.click(within(item).getByRole('button', { name: REPLY_TO_IT }));

    const row = document.getElementById('response-crowding')!;
    const reply = await within(row).findByRole('form', { name: 'Reply' });
    const replyBox = within(reply).getByLabelText<HTMLTextAreaElement>('Your response');
    expect(replyBox.value).toBe(draft);
    // The keyboard lands in it, ready to go on writing.
    await waitFor(() => expect(document.activeElement).toBe(replyBox));
    expect(reply.className).toContain('composer-against');
    expect(rootBox().value).toBe('');
    // The reply box offers its own parent as nothing "already said".
    await afterThePause();
    expect(within(reply).queryByRole('region', { name: ALREADY_SAID })).toBeNull();
  });
});
