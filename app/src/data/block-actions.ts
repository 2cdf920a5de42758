// Blocking: the user's block documents (the user database's marks of kind 'blocks', one per blocked uid) written
// locally with `pending: true` and sent by the outbox like any write (collections/index.ts
// `blocks`). Unblocking sets blocked=false: the document stays, so an unsent unblock replicates too.
import { badRequest } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { Session } from './collections/index.js';
import { markId } from './collections/mark.schema.js';
import { markPending } from './local-docs.js';

const now = () => new Date().toISOString();

export function createBlockActions(signedIn: (message: string) => Session) {
  return {
    /** Blocks `uid` (nothing when already blocked); `displayName`: their name as shown here, until the server's arrives. */
    async blockUser(uid: string, displayName: string | null): Promise<void> {
      const s = signedIn(MSG.loginToBlock);
      if (uid === s.uid) throw badRequest(MSG.blockSelf);
      if (!uid) throw badRequest(MSG.userNotFound);
      const existing = await s.db.marks.findOne(markId('blocks', uid)).exec();
      if (existing?.blocked) return;
      if (existing) {
        await markPending(existing, { blocked: true, display_name: existing.display_name ?? displayName, updated_at: now() });
        return;
      }
      await s.db.marks.insert({
        id: markId('blocks', uid),
        kind: 'blocks',
        blocked_uid: uid,
        display_name: displayName,
        blocked: true,
        updated_at: now(),
        seq: 0,
        pending: true,
      });
    },

    /** Unblocks `uid` (nothing when not blocked). */
    async unblockUser(uid: string): Promise<void> {
      const s = signedIn(MSG.loginToBlock);
      const existing = await s.db.marks.findOne(markId('blocks', uid)).exec();
      if (!existing?.blocked) return;
      await markPending(existing, { blocked: false, updated_at: now() });
    },
  };
}
