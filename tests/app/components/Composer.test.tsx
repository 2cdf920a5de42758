// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { ResponseType } from '../../../shared/constants';
import { Composer } from '../../../app/src/components/Composer/Composer';

afterEach(cleanup);

function Harness({ replyingTo }: { replyingTo: string }) {
  const [type, setType] = useState<ResponseType>('for');
  return <Composer topicId="t1" parentId={null} replyingTo={replyingTo} type={type} onType={setType} />;
}

describe('Composer', () => {
  it('refuses blank content with the SPEC text before anything is sent', () => {
    render(<Harness replyingTo="Is tea better than coffee?" />);
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: '   \n  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(screen.getByRole('alert').textContent).toBe('Content cannot be empty.');
  });

  it('takes its type from Agree / Disagree / Discuss and says so in the placeholder', () => {
    render(<Harness replyingTo="Is tea better than coffee?" />);
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
    render(<Harness replyingTo={long} />);
    expect(screen.getByLabelText('Your response').getAttribute('placeholder')).toBe(`Agree with "${'x'.repeat(99)}y…"`);
  });

  it('opens the quote and sources panels', () => {
    render(<Harness replyingTo="Tea?" />);
    fireEvent.click(screen.getByRole('button', { name: 'Quote a response' }));
    expect(screen.getByLabelText('Search a response to quote')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sources' }));
    expect(screen.queryByLabelText('Search a response to quote')).toBeNull();
    expect(screen.getByLabelText('Source URL')).toBeTruthy();
  });
});
