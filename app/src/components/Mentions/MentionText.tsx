// A response's text with its @mentions as links to the named people's pages. The
// stored text is plain; who it names is worked out here against the topic's participants on this
// device (shared/rules/mentions.ts findMentions, as the server does to notify them).
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { findMentions, splitMentions } from '../../../../shared/rules/mentions';
import { useMentionPeople } from '../../hooks/useMentionPeople';
import './MentionText.css';

export function MentionText({ text }: { text: string }) {
  const people = useMentionPeople();
  const parts = useMemo(() => splitMentions(text, findMentions(text, people)), [text, people]);
  if (parts.length === 1 && !('uid' in parts[0]!)) return text;
  return parts.map((part, i) =>
    'uid' in part ? (
      <Link key={i} to={`/users/${encodeURIComponent(part.uid)}`} className="mention-link" data-testid="mention-link">
        {part.text}
      </Link>
    ) : (
      part.text
    ),
  );
}
