// @vitest-environment jsdom
// The update offer is one polite status bar with a Reload and a Later (44 px targets on a phone):
// it keeps room under the page while it shows, and Later puts it away. On a phone it spans the
// screen less its margins instead of a narrow centred box over a response.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { UPDATE_AVAILABLE, UPDATE_BAR_SHOWN, UpdateBar } from '../../../app/src/components/UpdatePrompt/UpdatePrompt';

afterEach(cleanup);

const CSS = readFileSync(resolve(import.meta.dirname, '../../../app/src/components/UpdatePrompt/UpdatePrompt.css'), 'utf8');

/** The declarations of `selector` inside the phone media query of the prompt's stylesheet. */
function phoneRule(selector: string): string {
  const phone = CSS.slice(CSS.indexOf('@media (max-width: 600px)'));
  const start = phone.indexOf(`${selector} {`);
  expect(start).toBeGreaterThan(0);
  return phone.slice(start, phone.indexOf('}', start));
}

describe('UpdateBar', () => {
  it('is one named status with its text and two buttons, and keeps room under the page while shown', () => {
    const onReload = vi.fn();
    const { unmount } = render(<UpdateBar onReload={onReload} onLater={() => undefined} />);
    const bar = screen.getByRole('status', { name: 'App update' });
    expect(bar.className).toContain('update-prompt');
    expect(bar.querySelector('.update-prompt-text')?.textContent).toBe(UPDATE_AVAILABLE);
    const buttons = bar.querySelectorAll('.update-prompt-actions > button');
    expect([...buttons].map((b) => b.textContent)).toEqual(['Reload', 'Later']);
    expect(document.body.classList.contains(UPDATE_BAR_SHOWN)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.body.classList.contains(UPDATE_BAR_SHOWN)).toBe(false);
  });

  it('calls Later, which is how the page puts the bar away', () => {
    const onLater = vi.fn();
    render(<UpdateBar onReload={() => undefined} onLater={onLater} />);
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(onLater).toHaveBeenCalledTimes(1);
  });

  it('on a phone spans the screen less its margins, with 44 px buttons and room kept under the page', () => {
    const bar = phoneRule('.update-prompt');
    expect(bar).toMatch(/left: var\(--space-3\)/);
    expect(bar).toMatch(/right: var\(--space-3\)/);
    expect(bar).toMatch(/transform: none/);
    expect(bar).toMatch(/max-width: none/);
    expect(phoneRule('.update-prompt-actions .btn')).toMatch(/min-height: 44px/);
    expect(phoneRule(`body.${UPDATE_BAR_SHOWN}`)).toMatch(/padding-bottom:/);
  });
});
