// A notification keeps an excerpt of the words it is about (a mention: the response that named
// you; a reply: the title or response answered; a follower's notice: the title). When those words
// are removed, hidden or deleted, or come back with a restore, every such excerpt is written anew
// from the text everyone now reads, with a new seq, so the list, the notifications pull and a push
// still queued (push/payload.ts reads the row when it sends) carry no other copy.
import { NOTIFICATION_SUMMARY_CHARS } from '../../../shared/constants.js';
import { prefix } from '../../../shared/rules/truncate.js';
import type { Change } from './change-feed.js';
import type { DomainContext } from './context.js';

/** Rewrites the excerpts copying the item's words to `text`, inside the caller's transaction; returns whose lists changed. */
export async function rewriteNotificationCopies(
  ctx: DomainContext,
  type: 'topic' | 'response',
  id: string,
  text: string,
): Promise<Change[]> {
  const { store } = ctx;
  const summary = prefix(text, NOTIFICATION_SUMMARY_CHARS);
  const recipients = new Set<string>();
  for (const copy of await store.notifications.copying(type, id)) {
    await store.notifications.setSummary(copy.id, summary, await store.nextSeq());
    recipients.add(copy.recipient_uid);
  }
  return [...recipients].map((uid) => ({ collection: 'notifications', uid }));
}
