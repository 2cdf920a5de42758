// @vitest-environment jsdom
// The "More" menu button: announces its menu and state, focuses the first item,
// moves by arrows / Home / End, closes on Escape with focus back on the trigger, and does an item.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MoreMenu } from '../../../app/src/components/MoreMenu/MoreMenu';

afterEach(cleanup);

describe('MoreMenu', () => {
  it('is a menu button that works by keyboard', () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    render(
      <MoreMenu
        items={[
          { label: 'Edit', onSelect: onEdit },
          { label: 'Delete', onSelect: onDelete, danger: true },
          { label: 'This changed my view', icon: 'Δ', checked: true, onSelect: () => undefined },
        ]}
      />,
    );
    const trigger = screen.getByRole('button', { name: 'More' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(trigger);
    const menu = screen.getByRole('menu', { name: 'More' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Edit' }));
    const toggle = screen.getByRole('menuitemcheckbox', { name: 'This changed my view' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');

    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(toggle);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Edit' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(toggle);

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(trigger);

    // ArrowDown on the trigger opens it too; an item does its action and closes the menu.
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.click(document.activeElement!);
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(onEdit).not.toHaveBeenCalled();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('closes when pressed outside', () => {
    render(
      <>
        <MoreMenu items={[{ label: 'Report', onSelect: () => undefined }]} />
        <p>Elsewhere</p>
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.pointerDown(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
