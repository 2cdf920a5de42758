// A response's text as formatted by its author (a Markdown subset: links, emphasis, quotes, lists,
// code), with its @mentions as links to the people's pages. The HTML comes only from the one
// allow-listed renderer (shared/markdown.ts: text escaped, no raw HTML, no images, http(s)/mailto
// links only), so setting it as inner HTML is safe by construction. Until the renderer's chunk has
// loaded the text shows plain, with its line breaks, in the same box.
import { useMemo, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMentionPeople } from '../../hooks/useMentionPeople';
import { MentionText } from '../Mentions/MentionText';
import { useMarkdown } from './useMarkdown';
import '../Mentions/MentionText.css';
import './FormattedText.css';

export function FormattedText({ text, testId }: { text: string; testId?: string }) {
  const people = useMentionPeople();
  const markdown = useMarkdown();
  const navigate = useNavigate();
  const html = useMemo(() => markdown?.renderMarkdown(text, { people }), [markdown, text, people]);
  if (html === undefined)
    return (
      <div className="formatted-text formatted-text-plain" data-testid={testId}>
        <MentionText text={text} />
      </div>
    );
  // A mention is a link inside the app: followed without reloading the page.
  function followMention(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as Element).closest?.('a.mention-link');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(link.getAttribute('href')!);
  }
  return (
    <div
      className="formatted-text"
      data-testid={testId}
      data-formatted=""
      onClick={followMention}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
