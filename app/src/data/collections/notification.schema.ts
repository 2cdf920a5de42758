// Local schema of `notifications` (user database).
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const notificationSchemaLiteral = {
  title: 'notifications',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    type: { type: 'string', enum: ['reply_to_topic', 'reply_to_comment'] },
    actor_display_name: { type: 'string' },
    target_summary: { type: 'string' },
    target_id: { type: 'string' },
    created_at: { type: 'string' },
    is_read: { type: 'boolean' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
  },
  required: ['id', 'type', 'actor_display_name', 'target_summary', 'target_id', 'created_at', 'is_read', 'seq', 'pending'],
} as const;

export const notificationSchemaTyped = toTypedRxJsonSchema(notificationSchemaLiteral);
export type NotificationDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof notificationSchemaTyped>;
export const notificationSchema: RxJsonSchema<NotificationDocType> = notificationSchemaLiteral;
export const notificationMigrations: MigrationStrategies = {};
