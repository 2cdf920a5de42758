// Blocks on PostgreSQL: the SQLite repository's queries (store/sqlite/blocks-repo.ts).
import type { BlockRow, BlocksRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import { BLOCK_CHANGES, GET_BLOCK, IS_BLOCKED, LIST_BLOCKS, RESTAMP_BLOCKED, SET_BLOCK } from '../sql.js';

export function createPgBlocksRepo(q: PgQueries): BlocksRepo {
  return {
    get: (blocker, blocked) => q.row<BlockRow>(GET_BLOCK.pg, [blocker, blocked]),
    async set(row) {
      await q.run(SET_BLOCK.pg, [row.blocker_uid, row.blocked_uid, row.blocked ? 1 : 0, row.now, row.seq]);
    },
    isBlocked: async (recipient, actor) => (await q.row(IS_BLOCKED.pg, [recipient, actor])) !== undefined,
    list: (blocker) => q.rows<BlockRow>(LIST_BLOCKS.pg, [blocker]),
    changesSince: (blocker, checkpoint, limit) =>
      q.rows<BlockRow>(BLOCK_CHANGES.pg, [blocker, checkpoint.seq, checkpoint.seq, checkpoint.id, limit]),
    restampBlocked: async (blocked, seq) =>
      (await q.rows<{ blocker_uid: string }>(RESTAMP_BLOCKED.pg, [seq, blocked])).map((row) => row.blocker_uid),
  };
}
