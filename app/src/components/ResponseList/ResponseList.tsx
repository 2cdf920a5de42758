// A list of responses at one depth: the topic's roots or the replies of a response.
import type { Response } from '../../../../shared/types';
import { ResponseItem } from '../ResponseItem/ResponseItem';

interface ResponseListProps {
  responses: Response[];
  depth: number;
  emptyText: string;
  label: string;
}

export function ResponseList({ responses, depth, emptyText, label }: ResponseListProps) {
  if (responses.length === 0) return <p className="status-text response-empty">{emptyText}</p>;
  return (
    <ul className="response-list" aria-label={label}>
      {responses.map((r) => <ResponseItem key={r.id} response={r} depth={depth} />)}
    </ul>
  );
}
