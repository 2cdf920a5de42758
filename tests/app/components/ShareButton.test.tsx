// @vitest-environment jsdom
// "Share" hands the topic's title and its full address to the device's share sheet (the Web Share
// API); without one there is no button. Closing the sheet says nothing; a sheet that fails says what
// to do instead. jsdom has no share sheet: navigator.share is stood in for at that boundary.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SHARE_FAILED, ShareButton } from '../../../app/src/components/ShareButton/ShareButton';

const TITLE = 'Should cities make public transport free?';

function withShareSheet(share: (data: ShareData) => Promise<void>) {
  Object.defineProperty(navigator, 'share', { value: vi.fn(share), configurable: true, writable: true });
  return navigator.share as unknown as ReturnType<typeof vi.fn>;
}

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'share');
});

describe('ShareButton', () => {
  it("opens the share sheet with the topic's title and full address", async () => {
    const share = withShareSheet(() => Promise.resolve());
    render(<ShareButton title={TITLE} path="/topics/abc-123" />);
    fireEvent.click(screen.getByRole('button', { name: `Share topic: ${TITLE}` }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith({ title: TITLE, url: `${window.location.origin}/topics/abc-123` });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers nothing where the device has no share sheet', () => {
    expect(typeof navigator.share).toBe('undefined');
    render(<ShareButton title={TITLE} path="/topics/abc-123" />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says nothing when the sheet is closed, and what to do when it fails', async () => {
    const share = withShareSheet(() => Promise.reject(new DOMException('Share canceled', 'AbortError')));
    render(<ShareButton title={TITLE} path="/topics/abc-123" />);
    const button = screen.getByRole('button', { name: `Share topic: ${TITLE}` });
    fireEvent.click(button);
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(screen.queryByRole('alert')).toBeNull();

    share.mockRejectedValue(new DOMException('Not allowed', 'NotAllowedError'));
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(SHARE_FAILED);
  });
});
