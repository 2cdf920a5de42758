// A list of responses at one depth: the topic's roots or the replies of a response.
import type { ResponseView } from '../../hooks/useReplies';
import { ResponseItem } from '../ResponseItem/ResponseItem';

interface ResponseListProps {
  responses: ResponseView[];
  depth: number;
  emptyText: string;
  label: string;
}

export function ResponseList({ responses, depth, emptyText, label }: ResponseListProps) {
  if (responses.length === 0) return <p className="status-text response-empty">{emptyText}</p>;
  return (
    <ul className="response-list" aria-label={label}>
      {responses.map((r) => (
        <ResponseItem key={r.id} response={r} depth={depth} />
      ))}
    </ul>
  );
}
