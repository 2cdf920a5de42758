// Blocks: the caller's own, one document per blocked user (id = the blocked uid).
// Private: pulled, pushed, loaded and streamed for their owner only. Unblocking is blocked=false,
// never a tombstone (as a taken-back vote). A push blocks or unblocks through the same domain
// operation as PUT / DELETE /api/blocks/{uid}.
import { z } from 'zod';
import { id, time, replicated } from '../../../../shared/schemas/answers.js';
import { badRequest } from '../../../../shared/errors.js';
import type { BlockDoc } from '../../../../shared/sync-protocol.js';
import { setBlock } from '../../domain/blocks.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { BlockRow } from '../../store/rows.js';

export function blockDoc(row: BlockRow): BlockDoc {
  return {
    id: row.blocked_uid,
    blocked_uid: row.blocked_uid,
    display_name: row.display_name,
    blocked: row.blocked === 1,
    updated_at: row.updated_at,
    seq: row.seq,
    _deleted: false,
  };
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({ id, blocked_uid: id, display_name: z.string().nullable(), blocked: z.boolean(), updated_at: time, ...replicated })
  .meta({ id: 'BlockDoc', description: 'A user the caller blocked (`id` is their uid); `blocked: false` once unblocked.' });

export const blocks: CollectionDescriptor<'blocks'> = {
  documentSchema,
  privacy: 'private',
  pushSchema: z.looseObject({ ...docBase, blocked: z.boolean() }),
  pull: async (ctx, scope, from, limit) => (await ctx.store.blocks.changesSince(caller(scope).uid, from, limit)).map(blockDoc),
  async load(ctx, user, id) {
    const row = await ctx.store.blocks.get(user.uid, id);
    return row ? blockDoc(row) : null;
  },
  async apply(ctx, user, _master, next) {
    // Unblocking keeps the document (blocked=false), so a block is never a tombstone.
    if (next._deleted) throw badRequest('A block cannot be deleted; unblock (blocked: false) instead.');
    await setBlock(ctx, user, next.id, next.blocked === true);
  },
  streamEvent: ownerOnly('blocks'),
};
