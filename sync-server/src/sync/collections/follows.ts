// Follows: the caller's own, one document per topic (id = the topic id). Private:
// pulled, pushed, loaded and streamed for their owner only. Unfollowing is following=false, never a
// tombstone. A push follows or unfollows through the same domain operation as PUT / DELETE
// /api/follows/{topic_id}.
import { z } from 'zod';
import { id, time, replicated } from '../../../../shared/schemas/answers.js';
import { badRequest } from '../../../../shared/errors.js';
import type { FollowDoc } from '../../../../shared/sync-protocol.js';
import { setFollow } from '../../domain/follows.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { FollowRow } from '../../store/rows.js';

export function followDoc(row: FollowRow): FollowDoc {
  return {
    id: row.topic_id,
    topic_id: row.topic_id,
    title: row.title,
    following: row.following === 1,
    updated_at: row.updated_at,
    seq: row.seq,
    _deleted: false,
  };
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({ id, topic_id: id, title: z.string().nullable(), following: z.boolean(), updated_at: time, ...replicated })
  .meta({ id: 'FollowDoc', description: 'A topic the caller follows (`id` is the topic id); `following: false` once unfollowed.' });

export const follows: CollectionDescriptor<'follows'> = {
  documentSchema,
  privacy: 'private',
  pushSchema: z.looseObject({ ...docBase, following: z.boolean() }),
  pull: async (ctx, scope, from, limit) => (await ctx.store.follows.changesSince(caller(scope).uid, from, limit)).map(followDoc),
  async load(ctx, user, id) {
    const row = await ctx.store.follows.get(user.uid, id);
    return row ? followDoc(row) : null;
  },
  async apply(ctx, user, _master, next) {
    // Unfollowing keeps the document (following=false), so a follow is never a tombstone.
    if (next._deleted) throw badRequest('A follow cannot be deleted; unfollow (following: false) instead.');
    await setFollow(ctx, user, next.id, next.following === true);
  },
  streamEvent: ownerOnly('follows'),
};
