// Votes: the user's vote documents (one per target, user database `votes`) written locally with
// `pending: true` and sent by the outbox like any write (collections/index.ts `votes`). A vote is a
// value, agree 1 (the upvote), disagree -1, pass 0, or null once taken back: the document stays, so
// an unsent take-back replicates too. `upvoted` follows the value (value === 1).
import { VOTE_VALUES, type TargetType, type VoteValue } from '../../../shared/constants.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { voteDocId } from '../../../shared/rules/vote-id.js';
import type { Session } from './collections/index.js';
import { storedVoteValue } from './collections/vote.schema.js';
import { markPending } from './local-docs.js';

const now = () => new Date().toISOString();

/** A stored target as the vote needs it: gone or being deleted here, it takes no vote. */
type StoredTarget = { topic_id?: string; pending_delete?: boolean } | null;

export function createVoteActions(
  signedIn: (message: string) => Session,
  storedTopic: (id: string) => Promise<StoredTarget>,
  storedResponse: (id: string) => Promise<StoredTarget>,
) {
  /** Writes the caller's vote on the target here (pending until the server has it). */
  async function writeVote(targetType: TargetType, targetId: string, value: VoteValue | null): Promise<void> {
    const s = signedIn(MSG.loginToVote);
    const target = targetType === 'topic' ? await storedTopic(targetId) : await storedResponse(targetId);
    if (!target || target.pending_delete) throw notFound(MSG.targetNotFound);
    const id = voteDocId(targetType, targetId);
    const existing = await s.db.votes.findOne(id).exec();
    const change = { value, upvoted: value === VOTE_VALUES.agree, updated_at: now() };
    if (existing) {
      if (storedVoteValue(existing) !== value) await markPending(existing, change);
      return;
    }
    if (value === null) return;
    await s.db.votes.insert({
      id,
      target_type: targetType,
      target_id: targetId,
      topic_id: targetType === 'topic' ? targetId : target.topic_id!,
      ...change,
      confirmed_upvoted: false,
      seq: 0,
      pending: true,
    });
  }

  return {
    /** The upvote: agree, or taken back when it already is; resolves to the new state. */
    async toggleVote(targetType: TargetType, targetId: string): Promise<boolean> {
      const s = signedIn(MSG.loginToVote);
      const existing = await s.db.votes.findOne(voteDocId(targetType, targetId)).exec();
      const upvoted = storedVoteValue(existing) !== VOTE_VALUES.agree;
      await writeVote(targetType, targetId, upvoted ? VOTE_VALUES.agree : null);
      return upvoted;
    },

    /** Agree, disagree or pass on a response (a topic: agree only), or null to take the vote back. */
    async castVote(targetType: TargetType, targetId: string, value: VoteValue | null): Promise<void> {
      if (targetType === 'topic' && value !== null && value !== VOTE_VALUES.agree) throw badRequest(MSG.onlyResponsesTakeOpinionVotes);
      await writeVote(targetType, targetId, value);
    },
  };
}
