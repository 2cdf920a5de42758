// Local schema of `votes` (user database): the caller's own votes, one document per target;
// `value` 1 agree (the upvote), -1 disagree, 0 pass, null none; `upvoted` is value === 1. Taking a
// vote back sets value=null, upvoted=false (never an RxDB tombstone) so a pending removal stays
// countable for the optimistic score.
import { withToggledServerBase, withVoteValue } from './server-base.js';
import { VOTE_VALUES, type VoteValue } from '../../../../shared/constants.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const voteSchemaLiteral = {
  title: 'votes',
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 80 },
    target_type: { type: 'string', enum: ['topic', 'response'] },
    target_id: { type: 'string' },
    topic_id: { type: 'string' },
    upvoted: { type: 'boolean' },
    value: { type: ['integer', 'null'], enum: [1, -1, 0, null] },
    updated_at: { type: 'string' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
    // Local only: the vote state the server last confirmed (the score already counts it).
    confirmed_upvoted: { type: 'boolean' },
  },
  required: ['id', 'target_type', 'target_id', 'topic_id', 'upvoted', 'updated_at', 'seq', 'pending', 'confirmed_upvoted'],
} as const;

export const voteSchemaTyped = toTypedRxJsonSchema(voteSchemaLiteral);
export type VoteDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof voteSchemaTyped>;
export const voteSchema: RxJsonSchema<VoteDocType> = voteSchemaLiteral;
export const voteMigrations: MigrationStrategies = {
  // v0 → v1: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  1: withToggledServerBase('upvoted'),
  // v1 → v2: the vote's value (agree, disagree, pass); every vote so far was an upvote, an agree.
  // A change still unsent from before the outbox gets its base first (a no-op once it has one).
  2: (old) => withVoteValue(withToggledServerBase('upvoted')(old)),
};

/**
 * A stored vote's value: its `value`, or for a document written before there was one, its `upvoted`
 * (agree, or none). Null: no vote.
 */
export function storedVoteValue(doc: object | null | undefined): VoteValue | null {
  const { value, upvoted } = (doc ?? {}) as { value?: unknown; upvoted?: unknown };
  if (value === 1 || value === -1 || value === 0) return value;
  return value === undefined && upvoted === true ? VOTE_VALUES.agree : null;
}
