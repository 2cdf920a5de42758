// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Modal } from '../../../app/src/components/Modal/Modal';
import { responsesLabel } from '../../../app/src/components/TopicRow/TopicRow';

afterEach(cleanup);

describe('Modal', () => {
  it('closes on an overlay click and on Escape, not on a click inside the panel', () => {
    const onClose = vi.fn();
    render(
      <Modal title="Sign in to Crux" onClose={onClose}>
        <p>inside</p>
      </Modal>,
    );
    fireEvent.mouseDown(screen.getByText('inside'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByTestId('modal-overlay'));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('dialog', { name: 'Sign in to Crux' })).toBeTruthy();
  });

  it('cannot be dismissed without onClose (the username modal)', () => {
    render(
      <Modal title="Welcome! Please set your username.">
        <p>x</p>
      </Modal>,
    );
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('keeps Tab inside the panel', () => {
    render(
      <Modal title="Sign in to Crux" onClose={() => {}}>
        <input aria-label="Email" />
        <button type="button">Go</button>
      </Modal>,
    );
    const close = screen.getByRole('button', { name: 'Close' });
    const go = screen.getByRole('button', { name: 'Go' });
    go.focus();
    fireEvent.keyDown(go, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(go);
  });
});

describe('responsesLabel', () => {
  it.each([
    [0, '0 responses'],
    [1, '1 response'],
    [2, '2 responses'],
  ])('%i → %s', (n, text) => {
    expect(responsesLabel(n)).toBe(text);
  });
});
