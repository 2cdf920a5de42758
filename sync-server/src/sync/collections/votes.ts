// Votes: the caller's own. A taken-back vote stays a live document with
// upvoted=false (never a tombstone), so the toggle replicates both ways.
import { z } from 'zod';
import { TARGET_TYPES } from '../../../../shared/constants.js';
import { id, time, replicated } from '../../../../shared/schemas/answers.js';
import { badRequest } from '../../../../shared/errors.js';
import { parseVoteDocId, voteDocId } from '../../../../shared/rules/vote-id.js';
import type { VoteDoc } from '../../../../shared/sync-protocol.js';
import { setVote } from '../../domain/votes.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { VoteRow } from '../../store/rows.js';

export function voteDoc(row: VoteRow): VoteDoc {
  return {
    id: voteDocId(row.target_type, row.target_id),
    target_type: row.target_type,
    target_id: row.target_id,
    topic_id: row.topic_id,
    upvoted: row.deleted === 0,
    updated_at: row.updated_at,
    seq: row.seq,
    _deleted: false,
  };
}

function targetOf(id: string) {
  const target = parseVoteDocId(id);
  if (!target) throw badRequest('A vote id is "topic_<id>" or "response_<id>".');
  return target;
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({ id, target_type: z.enum(TARGET_TYPES), target_id: id, topic_id: id, upvoted: z.boolean(), updated_at: time, ...replicated })
  .meta({ id: 'VoteDoc', description: "The caller's vote on one target (`id` is `{target_type}_{target_id}`)." });

export const votes: CollectionDescriptor<'votes'> = {
  documentSchema,
  privacy: 'private',
  pushSchema: z.looseObject({ ...docBase, target_type: z.string(), target_id: z.string(), upvoted: z.boolean() }),
  pull: async (ctx, scope, from, limit) => (await ctx.store.votes.changesSince(caller(scope).uid, from, limit)).map(voteDoc),
  async load(ctx, user, id) {
    const { targetType, targetId } = targetOf(id);
    const row = await ctx.store.votes.get(user.uid, targetType, targetId);
    return row ? voteDoc(row) : null;
  },
  async apply(ctx, user, _master, next) {
    const { targetType, targetId } = targetOf(next.id);
    if (next.target_type !== targetType || next.target_id !== targetId) throw badRequest('The vote id does not match its target.');
    await setVote(ctx, user, targetType, targetId, next.upvoted === true);
  },
  streamEvent: ownerOnly('votes'),
};
