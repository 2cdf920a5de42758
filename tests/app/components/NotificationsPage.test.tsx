// @vitest-environment jsdom
// /notifications states (signed out, loading, error, empty, filled), their texts word for word,
// unread items marked beyond colour, a click marks read and opens the topic, Mark All as Read; push
// settings are not here but one link away (the settings page).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation, useParams } from 'react-router-dom';
import { of, throwError } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { NotificationItem } from '../../../app/src/data/api';
import { NotificationsPage } from '../../../app/src/routes/NotificationsPage';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
});
afterEach(cleanup);

const recent = new Date(Date.now() - 5 * 60_000).toISOString();
const list: NotificationItem[] = [
  {
    id: 'n1',
    type: 'reply_to_topic',
    actor_display_name: 'Bob',
    target_summary: 'Is tea better?',
    target_id: 'topic-7',
    response_id: 'r-71',
    response_deleted: false,
    created_at: recent,
    is_read: false,
  },
  {
    id: 'n2',
    type: 'reply_to_comment',
    actor_display_name: 'Cy',
    target_summary: 'Yes it is',
    target_id: 'topic-8',
    response_id: 'r-81',
    response_deleted: false,
    created_at: recent,
    is_read: true,
  },
];

function TopicStub() {
  const { topicId } = useParams();
  const { hash } = useLocation();
  return (
    <p>
      Topic page {topicId}
      {hash}
    </p>
  );
}

function renderPage(data = fakeData()) {
  return renderWithData(
    <Routes>
      <Route path="/notifications" element={<NotificationsPage />} />
      <Route path="/topics/:topicId" element={<TopicStub />} />
    </Routes>,
    data,
    '/notifications',
  );
}

describe('NotificationsPage', () => {
  it('signed out: the SPEC text', () => {
    held.session = SIGNED_OUT;
    renderPage();
    screen.getByRole('heading', { name: 'Your Notifications' });
    screen.getByText('You need to be logged in to see notifications.');
  });

  it('loading, then empty', () => {
    renderPage();
    screen.getByRole('status');
    expect(screen.getByRole('status').textContent).toBe('Loading notifications...');
    cleanup();
    renderPage(fakeData({ notifications$: () => of([]) }));
    screen.getByText('You have no notifications.');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Mark All as Read' }).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Push notifications and quiet hours' }).getAttribute('href')).toBe('/settings#push');
    expect(screen.queryByRole('region', { name: 'Push notifications' })).toBeNull();
  });

  it('error', () => {
    renderPage(fakeData({ notifications$: () => throwError(() => new Error('disk full')) }));
    expect(screen.getByRole('alert').textContent).toContain('Could not load notifications.');
  });

  it('lists items with actor, SPEC texts and time; unread is marked beyond colour', () => {
    renderPage(fakeData({ notifications$: () => of(list) }));
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Unread: ');
    expect(items[0]!.textContent).toContain('Bob replied to your topic: "Is tea better?"');
    expect(items[0]!.textContent).toContain('5 minutes ago');
    expect(items[0]!.className).toContain('is-unread');
    expect(items[1]!.textContent).not.toContain('Unread');
    expect(items[1]!.textContent).toContain('Cy replied to your comment: "Yes it is"');
  });

  it('a click marks the item read and opens the topic at the reply', async () => {
    const markRead = vi.fn(async () => {});
    renderPage(fakeData({ notifications$: () => of(list), markRead }));
    fireEvent.click(screen.getByRole('button', { name: /Bob replied to your topic/ }));
    expect(markRead).toHaveBeenCalledWith('n1');
    await screen.findByText('Topic page topic-7#response-r-71');
  });

  it('a notification whose reply was deleted says so and opens the topic itself', async () => {
    const gone = [{ ...list[0]!, response_deleted: true }];
    renderPage(fakeData({ notifications$: () => of(gone) }));
    const item = screen.getByRole('listitem');
    expect(item.textContent).toContain('This reply has since been deleted.');
    fireEvent.click(screen.getByRole('button', { name: /Bob replied to your topic/ }));
    await screen.findByText('Topic page topic-7');
  });

  it('a notification pulled before replies were known opens the topic itself', async () => {
    renderPage(fakeData({ notifications$: () => of([{ ...list[0]!, response_id: '' }]) }));
    fireEvent.click(screen.getByRole('button', { name: /Bob replied to your topic/ }));
    await screen.findByText('Topic page topic-7');
  });

  it('a read item opens without marking; Mark All as Read calls the data layer', async () => {
    const markRead = vi.fn(async () => {});
    const markAllRead = vi.fn(async () => {});
    renderPage(fakeData({ notifications$: () => of(list), markRead, markAllRead }));
    fireEvent.click(screen.getByRole('button', { name: 'Mark All as Read' }));
    await waitFor(() => expect(markAllRead).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByRole('button', { name: /Cy replied/ }));
    expect(markRead).not.toHaveBeenCalled();
    await screen.findByText('Topic page topic-8#response-r-81');
  });

  it("quotes a reply's first words without their Markdown marks", async () => {
    const formatted: NotificationItem = { ...list[1]!, target_summary: 'Yes **it** is, see [the study](https://example.org)' };
    renderPage(fakeData({ notifications$: () => of([formatted]) }));
    await waitFor(() =>
      expect(screen.getByRole('listitem').textContent).toContain('Cy replied to your comment: "Yes it is, see the study"'),
    );
    expect(screen.getByRole('listitem').textContent).not.toContain('**');
  });
});
