// Removal by moving the text away: a removed or hidden topic's title, or response's
// content, sources and quote, move to moderated_originals and the row keeps only the text everyone
// reads, with a new seq, so no read path (REST, pull, first page, search, user page, mail, a quote
// block) can serve the original and devices that hold it replace it at their next pull. The
// notifications' excerpts of it are written anew too (notification-copies.ts), and the sources
// catalogue lists only live citations. Restore moves it all back. Both run inside the caller's
// transaction and answer what changed.
import type { ModerationState } from '../../../shared/constants.js';
import { MSG, removedByModerator } from '../../../shared/messages.js';
import type { Source } from '../../../shared/types.js';
import type { ModeratedOriginalRow, TopicRow } from '../store/rows.js';
import type { Change } from './change-feed.js';
import type { DomainContext } from './context.js';
import { rewriteNotificationCopies } from './notification-copies.js';

/** The replacement text of a moderated item. */
const replacement = (state: ModerationState, reason: string | null) =>
  state === 'removed' ? removedByModerator(reason ?? '') : MSG.hiddenPendingReview;

/** A moderated original's citations as stored (JSON) read back as Source rows. */
export function originalSources(row: ModeratedOriginalRow): Source[] {
  const parsed = JSON.parse(row.sources) as Array<{ source_id: string; url: string; name: string | null; description: string | null }>;
  return parsed.map((source) => ({ id: source.source_id, url: source.url, name: source.name, description: source.description }));
}

/** Removes or hides a live item (an already moderated one only changes state and text). */
export async function hideItem(
  ctx: DomainContext,
  type: 'topic' | 'response',
  id: string,
  state: ModerationState,
  reason: string | null,
): Promise<Change[]> {
  const { store } = ctx;
  const text = replacement(state, reason);
  if (type === 'topic') {
    const topic = (await store.topics.get(id, null))!;
    if (topic.moderation === null) {
      await store.moderation.saveOriginal({
        target_type: 'topic',
        target_id: id,
        text: topic.title,
        quoted_response_id: null,
        sources: '[]',
      });
    }
    await store.moderation.setTopicModeration(id, text, state, reason, await store.nextSeq());
    return [{ collection: 'topics' }, ...(await rewriteNotificationCopies(ctx, 'topic', id, text))];
  }
  const response = (await store.responses.get(id, null))!;
  if (response.moderation === null) {
    const sources = (await store.sources.forResponse(id)).map((source) => ({
      source_id: source.id,
      url: source.url,
      name: source.name,
      description: source.description,
    }));
    await store.moderation.saveOriginal({
      target_type: 'response',
      target_id: id,
      text: response.content,
      quoted_response_id: response.quoted_response_id,
      sources: JSON.stringify(sources),
    });
    await store.sources.setForResponse(id, []);
  }
  await store.moderation.setResponseModeration(id, text, null, state, reason, await store.nextSeq());
  return [{ collection: 'responses', topicId: response.topic_id }, ...(await rewriteNotificationCopies(ctx, 'response', id, text))];
}

/** Puts a moderated item's own text (and a response's sources and quote) back; nothing when it is not moderated. */
export async function restoreItem(ctx: DomainContext, type: 'topic' | 'response', id: string): Promise<Change[]> {
  const { store } = ctx;
  const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
  if (!row || row.moderation === null) return [];
  const original = await store.moderation.original(type, id);
  if (type === 'topic') {
    const title = original?.text ?? (row as TopicRow).title;
    await store.moderation.setTopicModeration(id, title, null, null, await store.nextSeq());
    await store.moderation.dropOriginal(type, id);
    return [{ collection: 'topics' }, ...(await rewriteNotificationCopies(ctx, 'topic', id, title))];
  }
  const response = (await store.responses.get(id, null))!;
  // A quote whose response was deleted since is not put back.
  const quoted = original?.quoted_response_id ? await store.responses.get(original.quoted_response_id, null) : undefined;
  const content = original?.text ?? response.content;
  await store.moderation.setResponseModeration(
    id,
    content,
    quoted && !quoted.deleted ? quoted.id : null,
    null,
    null,
    await store.nextSeq(),
  );
  if (original) {
    const citations = originalSources(original).map((source) => ({
      sourceId: source.id,
      name: source.name,
      description: source.description,
    }));
    await store.sources.setForResponse(id, citations);
  }
  await store.moderation.dropOriginal(type, id);
  return [{ collection: 'responses', topicId: response.topic_id }, ...(await rewriteNotificationCopies(ctx, 'response', id, content))];
}
