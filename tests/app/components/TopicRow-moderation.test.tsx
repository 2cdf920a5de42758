// @vitest-environment jsdom
// A removed or hidden topic in the list: its title is the notice that replaced it, and
// it reads as a notice (muted, italic), not as a title someone wrote; a live topic's title is plain.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { SessionState } from '../../../app/src/auth/session';
import { TopicRow } from '../../../app/src/components/TopicRow/TopicRow';
import { MSG, removedByModerator } from '../../../shared/messages';
import { fakeTopic } from '../../fixtures/fake-data';
import { SIGNED_OUT, renderWithData } from './with-data';

vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: (): SessionState => SIGNED_OUT }));

afterEach(cleanup);

describe('a moderated topic in the list', () => {
  it('shows a removed topic’s replacement as a notice', () => {
    const title = removedByModerator('Advertising');
    renderWithData(<TopicRow topic={fakeTopic({ title, moderation: 'removed', moderation_reason: 'Advertising' })} />);
    expect(screen.getByRole('link', { name: title }).className).toContain('moderated-text');
  });

  it('shows a hidden topic’s notice the same way, and a live title plainly', () => {
    renderWithData(
      <ul>
        <TopicRow topic={fakeTopic({ title: MSG.hiddenPendingReview, moderation: 'hidden' })} />
        <TopicRow topic={fakeTopic({ title: 'Is tea better than coffee?' })} />
      </ul>,
    );
    expect(screen.getByRole('link', { name: MSG.hiddenPendingReview }).className).toContain('moderated-text');
    expect(screen.getByRole('link', { name: 'Is tea better than coffee?' }).className).not.toContain('moderated-text');
  });
});
