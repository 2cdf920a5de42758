// Checks the app restates locally (so a refused write never reaches the outbox)
// and the server enforces: only the creator changes an item; a reply stays in
// its parent's topic. Both throw the same CruxError the other side would.
import { forbidden, badRequest } from '../errors.js';
import { MSG } from '../messages.js';

/** Only the creator may change or delete an item: 403 with the given SPEC text otherwise. */
export function assertOwner(item: { creator_uid: string }, uid: string, message: string): void {
  if (item.creator_uid !== uid) throw forbidden(message);
}

/** A reply belongs to its parent's topic; naming another topic is a 400. */
export function assertParentInTopic(parent: { topic_id: string }, topicId: string | null | undefined): void {
  if (topicId != null && parent.topic_id !== topicId) throw badRequest(MSG.parentOtherTopic);
}
