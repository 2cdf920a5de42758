// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import type { ResponseType } from '../../../shared/constants';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer } from '../../../app/src/components/Composer/Composer';
import { fakeData, fakeResponse } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => {
  const held: { current: SessionState | null } = { current: null };
  return held;
});
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

function Harness({
  replyingTo,
  parentId = null,
  initialType = 'for',
}: {
  replyingTo: string;
  parentId?: string | null;
  initialType?: ResponseType;
}) {
  const [type, setType] = useState<ResponseType>(initialType);
  return <Composer topicId="t1" parentId={parentId} replyingTo={replyingTo} type={type} onType={setType} />;
}

describe('Composer', () => {
  it('refuses blank content with the SPEC text before anything is sent', () => {
    const createResponse = vi.fn();
    renderWithData(<Harness replyingTo="Is tea better than coffee?" />, fakeData({ createResponse }));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: '   \n  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(screen.getByRole('alert').textContent).toBe('Content cannot be empty.');
    expect(createResponse).not.toHaveBeenCalled();
  });

  it('asks a signed-out visitor to log in instead of posting', () => {
    const createResponse = vi.fn();
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ createResponse }));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(screen.getByRole('alert').textContent).toBe('You must be logged in to post a response.');
    expect(createResponse).not.toHaveBeenCalled();
  });

  it('takes its type from Agree / Disagree / Discuss and says so in the placeholder', () => {
    renderWithData(<Harness replyingTo="Is tea better than coffee?" />);
    const box = screen.getByLabelText('Your response');
    expect(box.getAttribute('placeholder')).toBe('Agree with "Is tea better than coffee?"');
    fireEvent.click(screen.getByRole('button', { name: /Disagree/ }));
    expect(box.getAttribute('placeholder')).toBe('Disagree with "Is tea better than coffee?"');
    expect(screen.getByRole('button', { name: /Disagree/ }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: /Discuss/ }));
    expect(box.getAttribute('placeholder')).toBe('Discuss "Is tea better than coffee?"');
  });

  it('truncates the placeholder text at 100 characters', () => {
    const long = 'x'.repeat(99) + 'yz and more words';
    renderWithData(<Harness replyingTo={long} />);
    expect(screen.getByLabelText('Your response').getAttribute('placeholder')).toBe(`Agree with "${'x'.repeat(99)}y…"`);
  });

  it('opens the quote and sources panels', () => {
    renderWithData(<Harness replyingTo="Tea?" />);
    fireEvent.click(screen.getByRole('button', { name: 'Quote a response' }));
    expect(screen.getByLabelText('Search a response to quote')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sources' }));
    expect(screen.queryByLabelText('Search a response to quote')).toBeNull();
    expect(screen.getByLabelText('Source URL')).toBeTruthy();
  });

  it('posts a reply through the data layer, then empties the form and forgets the draft', async () => {
    session.current = SIGNED_IN;
    const createResponse = vi.fn(async () => fakeResponse({ content: 'Tea wins.', isPending: true }));
    const deleteDraft = vi.fn(async () => {});
    renderWithData(
      <Harness replyingTo="Coffee is better." parentId="r1" initialType="against" />,
      fakeData({ createResponse, deleteDraft }),
    );
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    await waitFor(() => expect(box.value).toBe(''));
    expect(createResponse).toHaveBeenCalledExactlyOnceWith({
      topicId: 't1',
      parentResponseId: 'r1',
      type: 'against',
      content: 'Tea wins.',
      quotedResponseId: null,
      sources: [],
    });
    expect(deleteDraft).toHaveBeenCalledWith('reply:r1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the text and shows the reason when the data layer refuses the write', async () => {
    session.current = SIGNED_IN;
    const createResponse = vi.fn(async () => Promise.reject(new Error('That topic no longer exists.')));
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ createResponse }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That topic no longer exists.');
    expect(box.value).toBe('Tea wins.');
  });

  it("restores the signed-in user's draft for this form", async () => {
    session.current = SIGNED_IN;
    const loadDraft = vi.fn(async (key: string) => ({ key, text: 'Half a thought', extra: {}, updated_at: '2026-01-01T12:00:00.000Z' }));
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ loadDraft }));
    await waitFor(() => expect(screen.getByLabelText<HTMLTextAreaElement>('Your response').value).toBe('Half a thought'));
    expect(loadDraft).toHaveBeenCalledWith('topic:t1');
  });

  it('saves an edit through the data layer with the kept quote and sources', async () => {
    session.current = SIGNED_IN;
    const editResponse = vi.fn(async () => {});
    const onDone = vi.fn();
    const edit = {
      responseId: 'r2',
      content: 'Old text',
      quote: { id: 'r1', content: 'Coffee is better.', username: 'Bo' },
      sources: [{ url: 'https://a.example', name: 'A', description: null }],
    };
    renderWithData(
      <Composer topicId="t1" parentId={null} replyingTo="Tea?" type="for" onType={() => {}} edit={edit} onDone={onDone} />,
      fakeData({ editResponse }),
    );
    fireEvent.change(screen.getByLabelText('Response content'), { target: { value: 'New text' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledOnce());
    expect(editResponse).toHaveBeenCalledExactlyOnceWith('r2', { content: 'New text', quotedResponseId: 'r1', sources: edit.sources });
  });
});
