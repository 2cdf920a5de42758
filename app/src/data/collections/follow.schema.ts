// The last schema of the retired `follows` collection, kept to move a device's documents into
// `marks` (retired.ts). What it held:
// Local schema of `follows` (user database): the topics the signed-in user follows, one
// document per topic (id = the topic id). Unfollowing sets following=false (never an RxDB tombstone,
// like a taken-back vote), so an unsent unfollow still replicates and the server keeps it (replying
// again does not follow the topic behind the user's back). Private: the user's own database only.
import { withToggledServerBase } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const followSchemaLiteral = {
  title: 'follows',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    topic_id: { type: 'string' },
    // The topic's title as the server knows it (the device's copy until the server's arrives; null: gone).
    title: { type: ['string', 'null'] },
    following: { type: 'boolean' },
    updated_at: { type: 'string' },
    seq: { type: 'integer' },
    // Local only: a follow or unfollow not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: ['id', 'topic_id', 'following', 'updated_at', 'seq', 'pending'],
} as const;

export const followSchemaTyped = toTypedRxJsonSchema(followSchemaLiteral);
export type FollowDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof followSchemaTyped>;
export const followSchema: RxJsonSchema<FollowDocType> = followSchemaLiteral;
export const followMigrations: MigrationStrategies = {
  // v0 → v1: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  1: withToggledServerBase('following'),
};
