// @vitest-environment jsdom
// The topic page as the app opens at it (main.tsx preloads the page of the address before the first
// render): its chunk comes with the Markdown renderer's, so a row written with `**bold**` paints
// formatted in the very first render, never as raw marks waiting for a chunk. This file must be the
// first in its worker to load the renderer: nothing here renders formatted text before the check.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { preloadPage } from '../../../app/src/App';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_OUT;
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

describe('the topic page on its first paint', () => {
  it('shows a first-visit row written with **bold** as <strong>, with no raw marks', async () => {
    await preloadPage('/topics/t-first');
    const topic = fakeTopic({ id: 't-first', title: 'Is it formatted at once?' });
    const row = fakeResponse({ id: 'r-bold', topic_id: topic.id, content: 'It is **bold** and [sourced](https://example.org)' });
    renderTopicPage(topic, { rootResponses$: () => of([row]), topicResponses$: () => of([row]) });
    // No waiting: what the first render (and its effects) put on the screen.
    const text = document.querySelector(`[data-response-id="r-bold"] .formatted-text`);
    expect(text).not.toBeNull();
    expect(text!.querySelector('strong')?.textContent).toBe('bold');
    expect(text!.querySelector('a')?.getAttribute('href')).toBe('https://example.org');
    expect(text!.textContent).not.toContain('**');
  });
});
