// Following a topic: the user's follow documents (the user database's marks of kind 'follows', one per topic)
// written locally with `pending: true` and sent by the outbox like any write (collections/index.ts
// `follows`). Unfollowing sets following=false: the document stays, so an unsent unfollow replicates too.
import { MSG } from '../../../shared/messages.js';
import type { Session } from './collections/index.js';
import { markId } from './collections/mark.schema.js';
import { markPending } from './local-docs.js';

const now = () => new Date().toISOString();

export function createFollowActions(signedIn: (message: string) => Session) {
  /** Follows (`following`) or unfollows the topic; nothing when it already is so. `title`: as shown here. */
  async function setFollowing(topicId: string, following: boolean, title: string | null = null): Promise<void> {
    const s = signedIn(MSG.loginToFollow);
    const existing = await s.db.marks.findOne(markId('follows', topicId)).exec();
    if (existing) {
      if (existing.following === following) return;
      await markPending(existing, { following, title: existing.title ?? title, updated_at: now() });
      return;
    }
    if (!following) return;
    await s.db.marks.insert({
      id: markId('follows', topicId),
      kind: 'follows',
      topic_id: topicId,
      title,
      following: true,
      updated_at: now(),
      seq: 0,
      pending: true,
    });
  }
  return {
    followTopic: (topicId: string, title: string | null) => setFollowing(topicId, true, title),
    unfollowTopic: (topicId: string) => setFollowing(topicId, false),
  };
}
