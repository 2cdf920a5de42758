// Votes: the caller's own. A taken-back vote stays a live document with
// value null and upvoted false (never a tombstone), so every change replicates both ways.
import { z } from 'zod';
import { TARGET_TYPES, VOTE_VALUES, type VoteValue } from '../../../../shared/constants.js';
import { id, time, replicated } from '../../../../shared/schemas/answers.js';
import { badRequest } from '../../../../shared/errors.js';
import { parseVoteDocId, voteDocId } from '../../../../shared/rules/vote-id.js';
import type { VoteDoc } from '../../../../shared/sync-protocol.js';
import { castVote } from '../../domain/votes.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { VoteRow } from '../../store/rows.js';

export function voteDoc(row: VoteRow): VoteDoc {
  return {
    id: voteDocId(row.target_type, row.target_id),
    target_type: row.target_type,
    target_id: row.target_id,
    topic_id: row.topic_id,
    upvoted: row.deleted === 0 && row.value === VOTE_VALUES.agree,
    value: row.deleted === 0 ? row.value : null,
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

const voteValue = z.union([z.literal(VOTE_VALUES.agree), z.literal(VOTE_VALUES.disagree), z.literal(VOTE_VALUES.pass)]);

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({
    id,
    target_type: z.enum(TARGET_TYPES),
    target_id: id,
    topic_id: id,
    upvoted: z.boolean().meta({ description: 'A live agree vote (the upvote).' }),
    value: voteValue.nullable().meta({ description: '1 agree, -1 disagree, 0 pass; null: no vote.' }),
    updated_at: time,
    ...replicated,
  })
  .meta({ id: 'VoteDoc', description: "The caller's vote on one target (`id` is `{target_type}_{target_id}`)." });

export const votes: CollectionDescriptor<'votes'> = {
  documentSchema,
  privacy: 'private',
  // `value` is absent from the rows of a client that predates the disagree vote: its `upvoted` says agree or none.
  pushSchema: z.looseObject({
    ...docBase,
    target_type: z.string(),
    target_id: z.string(),
    upvoted: z.boolean(),
    value: voteValue.nullish(),
  }),
  pull: async (ctx, scope, from, limit) => (await ctx.store.votes.changesSince(caller(scope).uid, from, limit)).map(voteDoc),
  async load(ctx, user, id) {
    const { targetType, targetId } = targetOf(id);
    const row = await ctx.store.votes.get(user.uid, targetType, targetId);
    return row ? voteDoc(row) : null;
  },
  async apply(ctx, user, _master, next) {
    const { targetType, targetId } = targetOf(next.id);
    if (next.target_type !== targetType || next.target_id !== targetId) throw badRequest('The vote id does not match its target.');
    const value: VoteValue | null = next.value !== undefined ? next.value : next.upvoted ? VOTE_VALUES.agree : null;
    await castVote(ctx, user, targetType, targetId, value);
  },
  streamEvent: ownerOnly('votes'),
};
