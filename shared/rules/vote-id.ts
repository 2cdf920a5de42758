// A vote's id is its target: one vote per user and target, so the same vote
// made on two devices (or retried) is one document. Both the app (writing the
// local vote) and the server (reading a pushed one) use these two functions.
import { TARGET_TYPES, type TargetType } from '../constants.js';

export interface VoteTarget {
  targetType: TargetType;
  targetId: string;
}

export const voteDocId = (targetType: TargetType, targetId: string): string => `${targetType}_${targetId}`;

/** The target named by a vote id, or null when the id is not `topic_<id>` / `response_<id>`. */
export function parseVoteDocId(id: string): VoteTarget | null {
  const cut = id.indexOf('_');
  if (cut < 0) return null;
  const type = id.slice(0, cut);
  const targetId = id.slice(cut + 1);
  if (!(TARGET_TYPES as readonly string[]).includes(type) || targetId === '') return null;
  return { targetType: type as TargetType, targetId };
}
