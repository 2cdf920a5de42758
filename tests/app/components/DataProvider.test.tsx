// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer } from '../../../app/src/components/Composer/Composer';
import { SyncStatus } from '../../../app/src/components/SyncStatus/SyncStatus';
import { UnavailableDataProvider } from '../../../app/src/context/DataProvider';
import { TopicListPage } from '../../../app/src/routes/TopicListPage';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { SIGNED_IN } from './with-data';

const session = vi.hoisted(() => {
  const held: { current: SessionState | null } = { current: null };
  return held;
});
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

afterEach(cleanup);

const REASON = 'The browser refused to open the local database (storage is blocked).';

function renderUnavailable(route: string) {
  session.current = SIGNED_IN;
  return render(
    <MemoryRouter initialEntries={[route]}>
      <UnavailableDataProvider reason={REASON}>
        <SyncStatus />
        <Routes>
          <Route path="/" element={<TopicListPage />} />
          <Route path="/topics/:topicId" element={<TopicPage />} />
          <Route path="/compose" element={<Composer topicId="t1" parentId={null} replyingTo="Tea?" type="for" onType={() => {}} />} />
        </Routes>
      </UnavailableDataProvider>
    </MemoryRouter>,
  );
}

describe('UnavailableDataProvider (the local database could not open)', () => {
  it("shows the reason in the topic list's error state, and no sync pill", async () => {
    renderUnavailable('/');
    expect((await screen.findByRole('alert')).textContent).toBe(`Error: ${REASON}`);
    expect(screen.queryByTestId('sync-status')).toBeNull();
  });

  it('shows the reason on a topic page', async () => {
    renderUnavailable('/topics/t1');
    expect((await screen.findByRole('alert')).textContent).toBe(`Error: ${REASON}`);
  });

  it('rejects a write with the reason, which the form shows', async () => {
    renderUnavailable('/compose');
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect((await screen.findByRole('alert')).textContent).toBe(REASON);
  });
});

describe('useData', () => {
  it('says what is missing when a screen renders outside a provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<SyncStatus />)).toThrow(/DataProvider/);
    vi.mocked(console.error).mockRestore();
  });
});
