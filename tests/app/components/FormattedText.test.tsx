// @vitest-environment jsdom
// A response's formatted text in the app: the renderer's chunk loads on first use (plain text, line
// breaks kept, until then), the HTML carries no script, handler, image or unsafe link, @mentions
// follow inside the app, and the composer's Preview shows the text as it will read.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { of } from 'rxjs';
import type { ResponseType } from '../../../shared/constants';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer, FORMAT_HINT } from '../../../app/src/components/Composer/Composer';
import { FormattedText } from '../../../app/src/components/FormattedText/FormattedText';
import { MentionPeopleContext } from '../../../app/src/hooks/useMentionPeople';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => session.current,
}));

beforeEach(() => {
  session.current = SIGNED_IN;
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

const ATTACK = [
  '*soft* and **strong** with `code`',
  '',
  '> quoted',
  '',
  '- one',
  '- two',
  '',
  '<script>window.hacked = 1</script> <img src=x onerror="window.hacked = 2">',
  '[bad](javascript:window.hacked=3) [data](data:text/html,x) [good](https://example.org/page) ![pic](https://example.org/p.png)',
].join('\n');

/** The formatted box, once the renderer has loaded. */
const formattedIn = async (root: HTMLElement) =>
  waitFor(() => root.querySelector<HTMLElement>('[data-formatted]') ?? Promise.reject(new Error('plain still')));

describe('FormattedText in a response', () => {
  it('shows a quoted response in its block by its words, without the Markdown marks', async () => {
    const topic = fakeTopic();
    const quoted = fakeResponse({
      id: 'r-quoted',
      topic_id: topic.id,
      content: 'Fares are **regressive**: see [the study](https://example.org/s).',
    });
    const quoting = fakeResponse({
      id: 'r-quoting',
      topic_id: topic.id,
      content: 'I disagree.',
      quoted_response: { id: quoted.id, content: quoted.content, username: 'Ada', creator_uid: 'uid-ada' },
      quoted_response_id: quoted.id,
    });
    const data = fakeData({
      topic$: () => of(topic),
      rootResponses$: () => of([quoted, quoting]),
      topicResponses$: () => of([quoted, quoting]),
    });
    renderWithData(
      <Routes>
        <Route path="/topics/:topicId" element={<TopicPage />} />
      </Routes>,
      data,
      `/topics/${topic.id}`,
    );
    const block = await screen.findByTestId('quoted-block');
    await waitFor(() => expect(block.querySelector('.response-quote-text')!.textContent).toBe('“Fares are regressive: see the study.”'));
    expect(block.querySelector('a[href^="https://example.org"]')).toBeNull();
  });

  it('renders the subset safely in the topic page', async () => {
    const topic = fakeTopic();
    const response = fakeResponse({ id: 'r1', topic_id: topic.id, content: ATTACK });
    const data = fakeData({ topic$: () => of(topic), rootResponses$: () => of([response]), topicResponses$: () => of([response]) });
    renderWithData(
      <Routes>
        <Route path="/topics/:topicId" element={<TopicPage />} />
      </Routes>,
      data,
      `/topics/${topic.id}`,
    );
    const content = await screen.findByTestId('response-content');
    expect(content.tagName).toBe('DIV');
    const box = await formattedIn(content);
    expect(box.querySelector('em')!.textContent).toBe('soft');
    expect(box.querySelector('strong')!.textContent).toBe('strong');
    expect(box.querySelector('code')!.textContent).toBe('code');
    expect(box.querySelector('blockquote')!.textContent.trim()).toBe('quoted');
    expect(box.querySelectorAll('li')).toHaveLength(2);
    expect(box.querySelector('script, img')).toBeNull();
    expect(box.textContent).toContain('<script>window.hacked = 1</script>');
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.org/page', 'https://example.org/p.png']);
    for (const link of links) {
      expect(link.getAttribute('rel')).toBe('nofollow ugc noopener');
      expect(link.getAttribute('target')).toBe('_blank');
    }
    expect(box.textContent).toContain('bad');
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('reads a plain text as before, and a mention follows inside the app', async () => {
    function Where() {
      return <p data-testid="where">{useLocation().pathname}</p>;
    }
    render(
      <MemoryRouter initialEntries={['/topics/t1']}>
        <MentionPeopleContext.Provider value={[{ uid: 'ada', name: 'Ada Lovelace' }]}>
          <Routes>
            <Route path="*" element={<FormattedText text={'Line one\nline two, a * b, thanks @Ada Lovelace'} testId="text" />} />
          </Routes>
          <Where />
        </MentionPeopleContext.Provider>
      </MemoryRouter>,
    );
    const box = await formattedIn(document.body);
    expect(box.querySelectorAll('p')).toHaveLength(1);
    expect(box.querySelector('br')).not.toBeNull();
    expect(box.querySelector('em')).toBeNull();
    expect(box.textContent).toContain('a * b');
    const mention = screen.getByTestId('mention-link');
    expect(mention.getAttribute('href')).toBe('/users/ada');
    fireEvent.click(mention);
    expect(screen.getByTestId('where').textContent).toBe('/users/ada');
  });
});

describe('Composer: Preview', () => {
  function Harness() {
    const [type, setType] = useState<ResponseType>('for');
    return <Composer topicId="t1" parentId={null} replyingTo="Is tea better?" type={type} onType={setType} />;
  }

  it('shows the text formatted in place of the box, and back', async () => {
    renderWithData(<Harness />, fakeData());
    const box = screen.getByLabelText('Your response');
    fireEvent.change(box, { target: { value: 'A **bold** claim, see [this](https://example.org) <b>raw</b>' } });
    const toggle = screen.getByRole('button', { name: 'Preview' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const preview = screen.getByRole('region', { name: 'Preview' });
    const formatted = await formattedIn(preview);
    expect(formatted.querySelector('strong')!.textContent).toBe('bold');
    expect(formatted.querySelector('a')!.getAttribute('rel')).toBe('nofollow ugc noopener');
    expect(formatted.querySelector('b')).toBeNull();
    expect(preview.textContent).toContain(FORMAT_HINT);
    expect(box.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull();
    expect(box.hidden).toBe(false);
    expect((box as HTMLTextAreaElement).value).toContain('**bold**');
  });
});
