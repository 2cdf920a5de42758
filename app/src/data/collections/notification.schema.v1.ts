// Version 1 of the local `notifications` schema (before moderation), kept so the migration to
// version 2 is tested against the real old shape (tests/app/moderation-migration.test.ts).
export const notificationSchemaV1 = {
  title: 'notifications',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    type: { type: 'string', enum: ['reply_to_topic', 'reply_to_comment'] },
    actor_display_name: { type: 'string' },
    target_summary: { type: 'string' },
    target_id: { type: 'string' },
    response_id: { type: 'string' },
    response_deleted: { type: 'boolean' },
    created_at: { type: 'string' },
    is_read: { type: 'boolean' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
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
