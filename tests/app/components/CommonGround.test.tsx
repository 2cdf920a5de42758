// @vitest-environment jsdom
// The Default / Common ground order of the topic's responses, and the badge on
// responses both sides approve (shared/rules/common-ground.ts decides).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { ResponseOrder } from '../../../app/src/data/api';
import { COMMON_GROUND_EXPLAINED } from '../../../app/src/components/CommonGround/CommonGround';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

// 2 of 2 on each side: the threshold's own example (COMMON_GROUND_BADGE_THRESHOLD).
const topic = fakeTopic({ id: 't1', responses_count: 2, stance_agree: 2, stance_disagree: 2 });
const bridge = fakeResponse({ id: 'r-bridge', topic_id: 't1', content: 'Both sides like this.', upvotes_agree: 2, upvotes_disagree: 2 });
const oneSided = fakeResponse({ id: 'r-one', topic_id: 't1', content: 'Only one side likes this.', upvotes_agree: 2, upvotes_disagree: 0 });

describe('Common ground', () => {
  it('switches the order of the root responses with two pressed buttons', async () => {
    const rootResponses$ = vi.fn((_topicId: string, order?: ResponseOrder) =>
      of(order === 'common-ground' ? [bridge, oneSided] : [oneSided, bridge]),
    );
    renderTopicPage(topic, { rootResponses$ });
    await screen.findByText('Only one side likes this.');
    const group = screen.getByRole('group', { name: 'Order responses' });
    const byDefault = screen.getByRole('button', { name: 'Default' });
    const common = screen.getByRole('button', { name: 'Common ground' });
    expect(group.contains(common)).toBe(true);
    expect(byDefault.getAttribute('aria-pressed')).toBe('true');
    expect(common.getAttribute('aria-pressed')).toBe('false');
    expect(rootResponses$).toHaveBeenLastCalledWith('t1', 'default');

    fireEvent.click(common);
    await waitFor(() => expect(rootResponses$).toHaveBeenLastCalledWith('t1', 'common-ground'));
    expect(common.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(screen.getAllByTestId('response-content').map((p) => p.textContent)).toEqual([
        'Both sides like this.',
        'Only one side likes this.',
      ]),
    );
  });

  it('marks only the responses both sides approve, with an explanation', async () => {
    renderTopicPage(topic, { rootResponses$: () => of([bridge, oneSided]) });
    await screen.findByText('Both sides like this.');
    const badges = screen.getAllByTestId('common-ground-badge');
    expect(badges).toHaveLength(1);
    expect(document.querySelector('[data-response-id="r-bridge"] [data-testid="common-ground-badge"]')).toBe(badges[0]);
    expect(badges[0]!.getAttribute('title')).toBe(COMMON_GROUND_EXPLAINED);
    expect(badges[0]!.textContent).toBe(`⚖ Common ground: ${COMMON_GROUND_EXPLAINED}`);
  });

  it('shows no badge while one side has no participants', async () => {
    renderTopicPage(fakeTopic({ id: 't1', stance_agree: 2, stance_disagree: 0 }), { rootResponses$: () => of([bridge]) });
    await screen.findByText('Both sides like this.');
    expect(screen.queryByTestId('common-ground-badge')).toBeNull();
  });
});
