// Blocking: a user blocks another; the blocked user's topics and responses collapse on
// the blocker's devices (the app's part) and their replies no longer notify the blocker
// (responses.ts notifyReply). Private: only the blocker ever reads their blocks (REST, their own
// pull and stream); nothing tells the blocked user or anyone else. REST (/api/blocks) and the
// sync push of `blocks` both call setBlock.
import type { AuthUser } from '../auth/verifier.js';
import { MSG } from '../../../shared/messages.js';
import type { BlockedUser } from '../../../shared/types.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import type { BlockRow } from '../store/rows.js';
import { nowIso, publish, type DomainContext } from './context.js';

export const toBlockedUser = (row: BlockRow): BlockedUser => ({
  uid: row.blocked_uid,
  display_name: row.display_name,
  updated_at: row.updated_at,
});

/**
 * Blocks (`blocked`) or unblocks a user. Yourself: 400; a user the server has never seen: 404
 * (unblocking one already blocked stays possible). Returns the row now (undefined: never blocked)
 * and whether anything changed, so a repeated call or a replayed push is harmless.
 */
export async function setBlock(
  ctx: DomainContext,
  actor: AuthUser,
  blockedUid: string,
  blocked: boolean,
): Promise<{ row: BlockRow | undefined; changed: boolean }> {
  const { store } = ctx;
  if (blockedUid === actor.uid) throw badRequest(MSG.blockSelf);
  const changed = await store.transaction(async () => {
    const current = await store.blocks.get(actor.uid, blockedUid);
    if (!current && !(await store.users.get(blockedUid))) throw notFound(MSG.userNotFound);
    if ((current?.blocked === 1) === blocked) return false;
    if (!current && !blocked) return false;
    await store.blocks.set({ blocker_uid: actor.uid, blocked_uid: blockedUid, blocked, now: nowIso(ctx), seq: await store.nextSeq() });
    return true;
  });
  if (changed) publish(ctx, [{ collection: 'blocks', uid: actor.uid }]);
  return { row: await store.blocks.get(actor.uid, blockedUid), changed };
}

/** The users the caller blocks now, most recently blocked first. */
export async function listBlocks(ctx: DomainContext, actor: AuthUser): Promise<BlockedUser[]> {
  return (await ctx.store.blocks.list(actor.uid)).map(toBlockedUser);
}
