// Local schema of `notifications` (user database). Version 1 added the reply a
// notification is about (response_id, response_deleted); the server re-stamped every
// notification then, so devices pull them again with the new fields. Version 2 added the
// moderation notices, version 3 mentions and replies in followed topics.
import { withToggledServerBase } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const notificationSchemaLiteral = {
  title: 'notifications',
  version: 4,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    type: {
      type: 'string',
      enum: ['reply_to_topic', 'reply_to_comment', 'moderation_removed', 'moderation_restored', 'mention', 'reply_in_followed_topic'],
    },
    actor_display_name: { type: 'string' },
    target_summary: { type: 'string' },
    target_id: { type: 'string' },
    response_id: { type: 'string' },
    response_deleted: { type: 'boolean' },
    created_at: { type: 'string' },
    is_read: { type: 'boolean' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: [
    'id',
    'type',
    'actor_display_name',
    'target_summary',
    'target_id',
    'response_id',
    'response_deleted',
    'created_at',
    'is_read',
    'seq',
    'pending',
  ],
} as const;

export const notificationSchemaTyped = toTypedRxJsonSchema(notificationSchemaLiteral);
export type NotificationDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof notificationSchemaTyped>;
export const notificationSchema: RxJsonSchema<NotificationDocType> = notificationSchemaLiteral;
export const notificationMigrations: MigrationStrategies = {
  // v0 → v1: not known locally until the re-stamped copy is pulled; '' opens the topic.
  1: (old: Record<string, unknown>) => ({ ...old, response_id: '', response_deleted: false }),
  // v1 → v2: the moderation notices join the types; stored ones are replies, unchanged.
  2: (old: Record<string, unknown>) => ({ ...old }),
  // v2 → v3: mentions and followed-topic replies join the types; stored ones are unchanged.
  3: (old: Record<string, unknown>) => ({ ...old }),
  // v3 → v4: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  4: withToggledServerBase('is_read'),
};
