// @vitest-environment jsdom
// The topic page's "Opinion groups" disclosure reads the replicated summary: before it is
// known, below the threshold, with no clear groups, and with groups (sizes, what sets each apart with
// its shares, the common ground between the groups, texts from the device's copy); a malformed summary shows
// the threshold, never a misread.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { SyncStatus } from '../../../app/src/hooks/useSyncStatus';
import type { OpinionGroupsSummary } from '../../../shared/rules/opinion-groups';
import { OPINION_GROUPS_COMMON_GROUND, OPINION_GROUPS_COMMON_GROUND_NOTE } from '../../../app/src/components/OpinionGroups/OpinionGroups';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { ONLINE, renderTopicPage } from './topic-page';
import { SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

const GROUPS: OpinionGroupsSummary = {
  version: 1,
  status: 'groups',
  participants: 14,
  groups: [
    { size: 8, representative: [{ response_id: 'r1', share: 1, others_share: 0 }] },
    { size: 6, representative: [{ response_id: 'r3', share: 0.83, others_share: 0.13 }] },
  ],
  consensus: [{ response_id: 'r5', min_share: 0.67 }],
};

const OFFLINE: SyncStatus = { ...ONLINE, online: false };

function open(opinion_groups: string | null | undefined, { online = true } = {}) {
  const topic = fakeTopic({ id: 't1', ...(opinion_groups === undefined ? {} : { opinion_groups }) });
  if (opinion_groups === undefined) delete topic.opinion_groups;
  const texts = { r1: 'Jobs matter.', r3: 'Debt outlives it.', r5: 'Ask the town.' };
  renderTopicPage(topic, {
    topicResponses$: () => of(Object.entries(texts).map(([id, content]) => fakeResponse({ id, topic_id: 't1', content }))),
    ...(online ? {} : { status$: of(OFFLINE) }),
  });
  const toggle = screen.getByRole('button', { name: 'Opinion groups' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  const region = screen.getByRole('region', { name: 'Opinion groups' });
  expect(toggle.getAttribute('aria-controls')).toBe(region.id);
  return region;
}

describe('Opinion groups panel', () => {
  it('shows each group, what sets it apart and what all approve', async () => {
    const region = open(JSON.stringify(GROUPS));
    expect(region.textContent).toContain('The 14 people who voted here fall into 2 groups of people who vote alike on these responses.');
    within(region).getByRole('heading', { name: 'Group A · 8 people' });
    within(region).getByRole('heading', { name: 'Group B · 6 people' });
    await within(region).findByRole('button', { name: 'Jobs matter.' });
    within(region).getByText('100% of this group agreed with it, 0% of the others');
    within(region).getByRole('button', { name: 'Debt outlives it.' });
    within(region).getByText('83% of this group agreed with it, 13% of the others');
    within(region).getByRole('heading', { name: OPINION_GROUPS_COMMON_GROUND });
    // What the common ground is, in plain words: disagrees rule a response out, a pass is no opinion.
    within(region).getByText(OPINION_GROUPS_COMMON_GROUND_NOTE);
    expect(OPINION_GROUPS_COMMON_GROUND_NOTE).toMatch(/disagreed/);
    // What a group is, and where it can be wrong.
    expect(region.textContent).toContain('who vote alike on these responses');
    expect(region.textContent).toContain('they show who votes alike, not why');
    within(region).getByRole('button', { name: 'Ask the town.' });
    within(region).getByText('at least 67% of each group agreed with it');
  });

  it.each([
    [
      JSON.stringify({ ...GROUPS, status: 'too-few', participants: 5, groups: [], consensus: [] }),
      'Groups appear once 12 people have each voted on at least 7 responses here (5 so far).',
    ],
    [null, 'Groups appear once 12 people have each voted on at least 7 responses here.'],
    ['{"version": 99}', 'Groups appear once 12 people have each voted on at least 7 responses here.'],
    [
      JSON.stringify({ ...GROUPS, status: 'no-clear-groups', participants: 40, groups: [], consensus: [] }),
      'No clear groups: the 40 people who voted here do not split into camps that vote alike on these responses.',
    ],
  ])('%s says: %s', (summary, text) => {
    const region = open(summary);
    expect(region.textContent).toBe(text);
  });

  it('before the device has the topic, says it is loading', () => {
    const region = open(undefined);
    within(region).getByRole('status');
    expect(region.textContent).toBe('Loading opinion groups...');
  });

  it("offline, without the device's copy of the topic, says so instead of loading for ever", () => {
    const region = open(undefined, { online: false });
    within(region).getByRole('status');
    expect(region.textContent).toBe('Opinion groups are not on this device yet; they load when you are back online.');
  });
});
