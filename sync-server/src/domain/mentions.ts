// @mentions: a response that names a participant of its topic ("@" and their display
// name, shared/rules/mentions.ts) notifies them. Only the topic's participants (its creator and the
// authors of its live responses) can be named, so the names are looked up among them alone.
// One notification per person per response: a new response's mentions are made before the reply's
// notification, and the reply's recipient, when named, is told as named ("mentioned you", which says
// more than "replied to your topic") and not again as the recipient; whoever already has a mention
// of it gets no other; never yourself, nor from someone you blocked; at most MAX_MENTIONS_NOTIFIED
// per response, edits included.
import type { AuthUser } from '../auth/verifier.js';
import { MAX_MENTIONS_NOTIFIED, NOTIFICATION_SUMMARY_CHARS } from '../../../shared/constants.js';
import { findMentions, mentionCandidates, type MentionPerson } from '../../../shared/rules/mentions.js';
import { prefix } from '../../../shared/rules/truncate.js';
import type { Change } from './change-feed.js';
import type { DomainContext } from './context.js';
import { mayNotify, notify } from './notify.js';

/** The people the content names, in text order, each once (all of one name when two share it). */
function mentioned(content: string, people: readonly MentionPerson[]): string[] {
  const uids = new Set<string>();
  for (const span of findMentions(content, people)) {
    const name = content.slice(span.start + 1, span.end).toLocaleLowerCase();
    for (const person of people) if (person.name.toLocaleLowerCase() === name) uids.add(person.uid);
  }
  return [...uids];
}

/**
 * Notifies the people a new or edited response names, inside the response's transaction; returns
 * the notification lists that changed and who was told. `before` is an edited response's previous
 * text: only the people the edit newly names are told (a typo fix does not ring everyone again).
 */
export async function notifyMentions(
  ctx: DomainContext,
  actor: AuthUser,
  response: { id: string; topic_id: string; content: string },
  now: string,
  before?: string,
): Promise<{ changes: Change[]; told: ReadonlySet<string> }> {
  const { store } = ctx;
  const none = { changes: [], told: new Set<string>() };
  const candidates = mentionCandidates(response.content);
  if (candidates.length === 0) return none;
  const people = await store.users.participantsNamed(response.topic_id, candidates);
  if (people.length === 0) return none;
  const earlier = new Set(before === undefined ? [] : mentioned(before, people));
  const named = mentioned(response.content, people).filter((uid) => uid !== actor.uid && !earlier.has(uid));
  if (named.length === 0) return none;

  const existing = await store.notifications.aboutResponse(response.id);
  // Told of it already as named. A follower, or the reply's recipient, told of the response only as
  // such is still told when an edit names them.
  const told = new Set(existing.filter((n) => n.type === 'mention').map((n) => n.recipient_uid));
  const toldNow = new Set<string>();
  let left = MAX_MENTIONS_NOTIFIED - existing.filter((n) => n.type === 'mention').length;
  const changes: Change[] = [];
  for (const uid of named) {
    if (left <= 0) break;
    if (told.has(uid)) continue;
    // As for replies: nothing from someone the person blocked, and the same flood cap per pair.
    if (!(await mayNotify(ctx, actor.uid, uid, now))) continue;
    changes.push(
      await notify(ctx, {
        recipient_uid: uid,
        type: 'mention',
        actor_uid: actor.uid,
        target_summary: prefix(response.content, NOTIFICATION_SUMMARY_CHARS),
        target_id: response.topic_id,
        response_id: response.id,
        created_at: now,
      }),
    );
    told.add(uid);
    toldNow.add(uid);
    left--;
  }
  return { changes, told: toldNow };
}
