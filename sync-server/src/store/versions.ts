// Both engines' rows of response_versions grouped by response, oldest first (the rows come ordered
// by response, then version): the text as first posted and the last VERSIONS_SHOWN (publicVersions).
import { publicVersions } from '../../../shared/rules/edit-history.js';
import type { ResponseVersion } from '../../../shared/types.js';

export function lastVersionsByResponse(rows: readonly (ResponseVersion & { response_id: string })[]): Map<string, ResponseVersion[]> {
  const byResponse = new Map<string, ResponseVersion[]>();
  for (const { response_id, version, content, created_at } of rows) {
    const list = byResponse.get(response_id);
    if (list) list.push({ version, content, created_at });
    else byResponse.set(response_id, [{ version, content, created_at }]);
  }
  for (const [id, list] of byResponse) byResponse.set(id, publicVersions(list));
  return byResponse;
}
