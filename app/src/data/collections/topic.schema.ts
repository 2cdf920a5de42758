// Local schema of `topics` (public database). Version 1: one `category` string and
// the local-only flags; version 0 (topic.schema.v0.ts) kept a `categories` list.
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';
import { CATEGORIES } from '../../../../shared/constants.js';

const topicSchemaLiteral = {
  title: 'topics',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    title: { type: 'string' },
    category: { type: 'string', enum: [...CATEGORIES] },
    creator_uid: { type: 'string' },
    username: { type: ['string', 'null'] },
    created_at: { type: 'string', maxLength: 40 },
    score: { type: 'integer' },
    responses_count: { type: 'integer' },
    seq: { type: 'integer' },
    // Local only: a user action not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only: deleted here, hidden at once, a tombstone once the server confirms.
    pending_delete: { type: 'boolean' },
  },
  required: ['id', 'title', 'category', 'creator_uid', 'created_at', 'score', 'responses_count', 'seq', 'pending', 'pending_delete'],
  // `pending` is indexed for the pending-changes count the status bar keeps live.
  indexes: ['created_at', 'pending'],
} as const;

export const topicSchemaTyped = toTypedRxJsonSchema(topicSchemaLiteral);
export type TopicDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof topicSchemaTyped>;
export const topicSchema: RxJsonSchema<TopicDocType> = topicSchemaLiteral;

export const topicMigrations: MigrationStrategies = {
  // v0 → v1: the list of categories became one category (the server keeps one).
  1: (old: { categories?: string[] } & Record<string, unknown>) => {
    const { categories, ...rest } = old;
    return { ...rest, category: categories?.[0] ?? 'Other', pending: false, pending_delete: false };
  },
};
