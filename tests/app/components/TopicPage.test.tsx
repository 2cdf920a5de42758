// @vitest-environment jsdom
// A topic whose replies this device has never pulled says so offline, instead of "No responses yet.".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { TopicView } from '../../../app/src/data/index.js';
import { REPLIES_NOT_ON_DEVICE } from '../../../app/src/routes/TopicPage';
import { BALANCE_LOADING, BALANCE_NOT_ON_DEVICE } from '../../../app/src/components/BalanceBars/BalanceBars';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { ONLINE, renderTopicPage } from './topic-page';
import { SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

function renderTopic(topic: TopicView, online: boolean, roots = [] as ReturnType<typeof fakeResponse>[]) {
  // The device counts only the replies it holds: none here, whatever the server has.
  renderTopicPage(topic, {
    rootResponses$: () => of(roots),
    status$: of({ ...ONLINE, online }),
    responseBalance$: () => of({ for: 0, against: 0, neutral: 0 }),
  });
}

const responsesBar = () => screen.getByTestId('response-balance');

describe('TopicPage: replies not on this device', () => {
  it('offline, with replies on the server only, says they are not on this device (role=status)', async () => {
    renderTopic(fakeTopic({ responses_count: 1, responsesOnDevice: false }), false);
    const note = await screen.findByText(REPLIES_NOT_ON_DEVICE);
    expect(note.getAttribute('role')).toBe('status');
    expect(REPLIES_NOT_ON_DEVICE).toBe('Replies to this topic are not on this device yet; they load when you are back online');
    expect(screen.queryByText('No responses yet.')).toBeNull();
  });

  it('online, while they are on their way, says it is loading, not "No responses yet."', async () => {
    renderTopic(fakeTopic({ responses_count: 2, responsesOnDevice: false }), true);
    await screen.findByText('Loading responses...');
    expect(screen.queryByText('No responses yet.')).toBeNull();
    // Nor does the balance bar count 0 / 0 / 0 of them.
    expect(screen.getByRole('img', { name: `Responses: ${BALANCE_LOADING}` }).children).toHaveLength(0);
    expect(responsesBar().textContent).toBe(`Responses${BALANCE_LOADING}`);
  });

  // "1 response" beside bars of 0 / 0 / 0 disagreed; the bar says what the page says.
  it('offline, the balance bar says the replies are not on this device instead of 0 / 0 / 0', async () => {
    renderTopic(fakeTopic({ responses_count: 1, responsesOnDevice: false }), false);
    await screen.findByText(REPLIES_NOT_ON_DEVICE);
    expect(screen.getByTestId('topic-responses-count').textContent).toBe('1 response');
    const bar = screen.getByRole('img', { name: `Responses: ${BALANCE_NOT_ON_DEVICE}` });
    expect(bar.children).toHaveLength(0);
    expect(responsesBar().textContent).toBe(`Responses${BALANCE_NOT_ON_DEVICE}`);
    expect(responsesBar().textContent).not.toMatch(/\d/);
    // The stances are on the topic itself: still counted.
    expect(screen.getByRole('img', { name: /^Stances: 0 agree/ })).toBeTruthy();
  });

  it('counts the replies (0 / 0 / 0 too) once they are on this device, or when there are none', async () => {
    renderTopic(fakeTopic({ responses_count: 0, responsesOnDevice: false }), false);
    await screen.findByText('No responses yet.');
    expect(screen.getByRole('img', { name: 'Responses: 0 agree, 0 disagree, 0 discuss' })).toBeTruthy();
    expect(screen.queryByText(BALANCE_NOT_ON_DEVICE)).toBeNull();
    cleanup();
    renderTopic(fakeTopic({ responses_count: 1, responsesOnDevice: true }), false);
    await screen.findByText('No responses yet.');
    expect(screen.getByRole('img', { name: 'Responses: 0 agree, 0 disagree, 0 discuss' })).toBeTruthy();
  });

  it.each([
    ['the topic has no replies', { responses_count: 0, responsesOnDevice: false }],
    ['its replies were pulled (and all deleted since)', { responses_count: 1, responsesOnDevice: true }],
  ])('says "No responses yet." offline when %s', async (_, overrides) => {
    renderTopic(fakeTopic(overrides), false);
    await screen.findByText('No responses yet.');
    expect(screen.queryByText(REPLIES_NOT_ON_DEVICE)).toBeNull();
  });

  it("every author name links to the author's page; no name reads Anonymous", async () => {
    const topic = fakeTopic({ responses_count: 1, responsesOnDevice: true, creator_uid: 'uid-topic', username: 'Tess' });
    renderTopic(topic, true, [fakeResponse({ topic_id: topic.id, creator_uid: 'uid-resp', username: null, content: 'No name here.' })]);
    await screen.findByText('No name here.');
    expect(screen.getByRole('link', { name: 'Tess' }).getAttribute('href')).toBe('/users/uid-topic');
    expect(screen.getByRole('link', { name: 'Anonymous' }).getAttribute('href')).toBe('/users/uid-resp');
  });

  it("the quoted block's author name links to their page too, beside the button that jumps to the quote", async () => {
    const topic = fakeTopic({ responses_count: 2, responsesOnDevice: true });
    const quoted = fakeResponse({ topic_id: topic.id, creator_uid: 'uid-quoted', username: 'Quinn', content: 'The quoted argument.' });
    const quoting = fakeResponse({
      topic_id: topic.id,
      content: 'Answering it.',
      quoted_response: { id: quoted.id, content: quoted.content, username: 'Quinn', creator_uid: 'uid-quoted' },
      quoted_response_id: quoted.id,
    });
    renderTopic(topic, true, [quoted, quoting]);
    const block = await screen.findByTestId('quoted-block');
    const links = within(block).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([['Quinn', '/users/uid-quoted']]);
    // Not nested in the button (a link inside a button is neither valid nor reachable).
    expect(links[0]!.closest('button')).toBeNull();
    expect(within(block).getByRole('button', { name: 'Go to quoted response: The quoted argument.' })).toBeTruthy();
  });

  it('shows the replies that are on the device', async () => {
    const topic = fakeTopic({ responses_count: 1, responsesOnDevice: false });
    renderTopic(topic, false, [fakeResponse({ topic_id: topic.id, content: 'Kept from an earlier visit.' })]);
    await screen.findByText('Kept from an earlier visit.');
    expect(screen.queryByText(REPLIES_NOT_ON_DEVICE)).toBeNull();
  });

  it('names the topic in the tab while it shows, and only the site after (in-app navigation keeps the tab in step)', async () => {
    const topic = fakeTopic({ title: 'Should cities ban cars?' });
    renderTopic(topic, true);
    await screen.findByRole('heading', { level: 1, name: 'Should cities ban cars?' });
    expect(document.title).toBe('Should cities ban cars? – Crux');
    cleanup();
    expect(document.title).toBe('Crux');
  });
});
