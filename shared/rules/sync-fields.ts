// Comparing two states of a replicated document on what a user may change
// (USER_FIELDS). The server uses it to spot retries and conflicts; the client
// to know whether its change landed. Sources compare as the server stores them.
import { USER_FIELDS, type SourceDoc, type SyncCollection } from '../sync-protocol.js';
import { normalizePushSettings } from '../push.js';
import { VOTE_VALUES } from '../constants.js';

export function normalizeSources(sources: readonly Partial<SourceDoc>[] | undefined | null): SourceDoc[] {
  const seen = new Set<string>();
  const out: SourceDoc[] = [];
  for (const source of sources ?? []) {
    const url = (source.url ?? '').trim();
    if (seen.has(url)) continue; // the composer removes by URL, so a URL appears once
    seen.add(url);
    out.push({ url, name: source.name?.trim() || null, description: source.description?.trim() || null });
  }
  return out;
}

function normalizedField(collection: SyncCollection, field: string, doc: Record<string, unknown>): unknown {
  const value = doc[field];
  if (collection === 'responses' && field === 'sources') return normalizeSources(value as SourceDoc[]);
  // A client from before the disagree vote sends no `value`: its `upvoted` is an agree or no vote.
  if (collection === 'votes' && field === 'value') return value !== undefined ? value : doc.upvoted === true ? VOTE_VALUES.agree : null;
  if (field === 'title' && typeof value === 'string') return value.trim();
  if (field === '_deleted' || field === 'upvoted' || field === 'is_read') return value === true;
  if (field === 'push_settings') return normalizePushSettings(value);
  return value ?? null;
}

/** Whether two states agree on everything a user may change (derived fields ignored). */
export function sameUserFields(collection: SyncCollection, a: object, b: object): boolean {
  // Two deleted states agree: once deleted there is nothing left to change (the
  // server's tombstone carries no text to compare, see TopicTombstone).
  if ((a as { _deleted?: unknown })._deleted === true && (b as { _deleted?: unknown })._deleted === true) return true;
  for (const field of USER_FIELDS[collection] as readonly string[]) {
    const left = normalizedField(collection, field, a as Record<string, unknown>);
    const right = normalizedField(collection, field, b as Record<string, unknown>);
    if (JSON.stringify(left) !== JSON.stringify(right)) return false;
  }
  return true;
}
