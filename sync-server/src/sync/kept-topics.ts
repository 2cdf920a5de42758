// The topics a device keeps (docs/SYNC.md "What a device keeps"), never the whole site: it reads the
// pages of the lists it shows and pulls the topics it keeps by id. Each read costs the server one
// page of a list or one row per asked id, whatever the number of topics on the site.
import type { TopicDoc, TopicTombstone } from '../../../shared/sync-protocol.js';
import type { ListTopicsQuery } from '../../../shared/schemas/topics.js';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import type { DomainContext } from '../domain/context.js';
import { topicDoc } from './collections/index.js';

/** A page of a list (or a search) as the `topics` collection syncs its documents, in the list's order. */
export async function topicsPage(ctx: DomainContext, query: ListTopicsQuery): Promise<TopicDoc[]> {
  const { topics } = ctx.store;
  let rows;
  if (query.search !== undefined) {
    const match = ftsQuery(query.search);
    if (match === null) return [];
    rows = await topics.search({ ...query, match, viewer: null });
  } else {
    rows = await topics.list({ ...query, viewer: null });
  }
  // A list holds live topics only: never a tombstone.
  return rows.map(topicDoc) as TopicDoc[];
}

/**
 * The asked topics the server holds a newer state of than the device (`known`: id → the seq the
 * device has, 0 for none): a live topic in full, a deleted one as its tombstone; an id the server
 * never had answers nothing.
 */
export async function topicsByIds(ctx: DomainContext, known: Record<string, number>): Promise<(TopicDoc | TopicTombstone)[]> {
  const rows = await Promise.all(Object.keys(known).map((id) => ctx.store.topics.get(id, null)));
  return rows.filter((row) => row !== undefined && row.seq > known[row.id]!).map((row) => topicDoc(row!));
}
