// Blocks: one row per blocker and blocked user, private to the blocker; unblocking
// keeps the row with blocked = 0 (never deleted), so the change replicates like a taken-back vote.
import type { Db } from './connection.js';
import type { BlockRow, BlockSet, Checkpoint } from '../rows.js';
import { BLOCK_CHANGES, GET_BLOCK, IS_BLOCKED, LIST_BLOCKS, RESTAMP_BLOCKED, SET_BLOCK } from '../sql.js';

export function createBlocksRepo(db: Db) {
  const get = db.prepare<[string, string], BlockRow>(GET_BLOCK.sqlite);
  const set = db.prepare<[string, string, number, string, number]>(SET_BLOCK.sqlite);
  const isBlocked = db.prepare<[string, string], { one: number }>(IS_BLOCKED.sqlite);
  const list = db.prepare<[string], BlockRow>(LIST_BLOCKS.sqlite);
  const changes = db.prepare<[string, number, number, string, number], BlockRow>(BLOCK_CHANGES.sqlite);
  const restamp = db.prepare<[number, string], { blocker_uid: string }>(RESTAMP_BLOCKED.sqlite);

  return {
    get: (blocker: string, blocked: string) => get.get(blocker, blocked),
    set(row: BlockSet) {
      set.run(row.blocker_uid, row.blocked_uid, row.blocked ? 1 : 0, row.now, row.seq);
    },
    isBlocked: (recipient: string, actor: string) => isBlocked.get(recipient, actor) !== undefined,
    list: (blocker: string) => list.all(blocker),
    changesSince: (blocker: string, checkpoint: Checkpoint, limit: number) =>
      changes.all(blocker, checkpoint.seq, checkpoint.seq, checkpoint.id, limit),
    restampBlocked: (blocked: string, seq: number) => restamp.all(seq, blocked).map((row) => row.blocker_uid),
  };
}
