// @vitest-environment jsdom
// The confirmation of "Delete my account": nothing can be sent before a choice is made and DELETE
// is typed; each choice says what happens to the person's writing, and what goes either way is listed;
// the chosen content is what is asked for; a refusal is shown and the form can be sent again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CONFIRM_WORD, DELETE_ACCOUNT_TEXT, DeleteAccountForm } from '../../../app/src/components/DeleteAccount/DeleteAccountForm';

afterEach(cleanup);

const submitButton = () => screen.getByRole<HTMLButtonElement>('button', { name: DELETE_ACCOUNT_TEXT.submit });
const confirmBox = () => screen.getByLabelText(DELETE_ACCOUNT_TEXT.confirmLabel);

describe('DeleteAccountForm', () => {
  it('says what each choice does and what goes either way', () => {
    render(<DeleteAccountForm onDelete={vi.fn()} />);
    expect(screen.getByRole('radio', { name: new RegExp(DELETE_ACCOUNT_TEXT.delete) })).toBeTruthy();
    expect(screen.getByRole('radio', { name: new RegExp(DELETE_ACCOUNT_TEXT.anonymise) })).toBeTruthy();
    expect(document.body.textContent).toContain(DELETE_ACCOUNT_TEXT.deleteExplain);
    expect(document.body.textContent).toContain(DELETE_ACCOUNT_TEXT.anonymiseExplain);
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual([...DELETE_ACCOUNT_TEXT.alwaysItems]);
    expect(items.join(' ')).toMatch(/votes.*e-mail address.*sign-in account/s);
  });

  it('is sent only with a choice and DELETE typed, and asks for the chosen content', async () => {
    const onDelete = vi.fn(async () => undefined);
    render(<DeleteAccountForm onDelete={onDelete} />);
    expect(submitButton().disabled).toBe(true);
    fireEvent.change(confirmBox(), { target: { value: CONFIRM_WORD } });
    // Typed, but no choice yet.
    expect(submitButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: new RegExp(DELETE_ACCOUNT_TEXT.anonymise) }));
    expect(submitButton().disabled).toBe(false);
    fireEvent.change(confirmBox(), { target: { value: 'delete' } });
    expect(submitButton().disabled).toBe(true);
    fireEvent.submit(submitButton().form!);
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.change(confirmBox(), { target: { value: CONFIRM_WORD } });
    fireEvent.click(submitButton());
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith('anonymise'));
  });

  it('shows a refusal and can be sent again', async () => {
    const onDelete = vi.fn().mockRejectedValueOnce(new Error('You are offline: deleting your account needs a connection.'));
    onDelete.mockResolvedValueOnce(undefined);
    render(<DeleteAccountForm onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('radio', { name: new RegExp(DELETE_ACCOUNT_TEXT.delete) }));
    fireEvent.change(confirmBox(), { target: { value: CONFIRM_WORD } });
    fireEvent.click(submitButton());
    expect((await screen.findByRole('alert')).textContent).toBe('You are offline: deleting your account needs a connection.');
    expect(submitButton().disabled).toBe(false);
    fireEvent.click(submitButton());
    await waitFor(() => expect(onDelete).toHaveBeenLastCalledWith('delete'));
    expect(onDelete).toHaveBeenCalledTimes(2);
  });
});
