// Local schema of `follows` (user database, issue 26 #3): the topics the signed-in user follows, one
// document per topic (id = the topic id). Unfollowing sets following=false (never an RxDB tombstone,
// like a taken-back vote), so an unsent unfollow still replicates and the server keeps it (replying
// again does not follow the topic behind the user's back). Private: the user's own database only.
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const followSchemaLiteral = {
  title: 'follows',
  version: 0,
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
  },
  required: ['id', 'topic_id', 'following', 'updated_at', 'seq', 'pending'],
} as const;

export const followSchemaTyped = toTypedRxJsonSchema(followSchemaLiteral);
export type FollowDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof followSchemaTyped>;
export const followSchema: RxJsonSchema<FollowDocType> = followSchemaLiteral;
export const followMigrations: MigrationStrategies = {};
