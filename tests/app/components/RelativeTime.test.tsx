// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RelativeTime } from '../../../app/src/components/RelativeTime/RelativeTime';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('RelativeTime', () => {
  it('renders the relative time in a <time> and keeps it current', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T12:00:00Z'));
    const { rerender } = render(<RelativeTime date="2026-01-01T11:59:50Z" />);
    const time = screen.getByText('just now');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe('2026-01-01T11:59:50Z');
    // The exact time in the tooltip reads as toLocaleString() writes it (one shared formatter), written
    // when a pointer first comes over it: no locale data is loaded for a page nobody hovers.
    expect(time.hasAttribute('title')).toBe(false);
    fireEvent.pointerEnter(time);
    expect(time.getAttribute('title')).toBe(new Date('2026-01-01T11:59:50Z').toLocaleString());
    // A new date shown in the same element (an edit's time) is the next hover's tooltip.
    rerender(<RelativeTime date="2026-01-01T11:59:55Z" />);
    fireEvent.pointerEnter(time);
    expect(time.getAttribute('title')).toBe(new Date('2026-01-01T11:59:55Z').toLocaleString());
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(time.textContent).toBe('1 minute ago');
    act(() => {
      vi.advanceTimersByTime(2 * 60 * 60_000);
    });
    expect(time.textContent).toBe('2 hours ago');
  });
});
