// Local schema of `drafts` (user database): unfinished texts; never replicated.
import type { ExtractDocumentTypeFromTypedRxJsonSchema, MigrationStrategies, RxJsonSchema } from 'rxdb';

export const draftSchemaLiteral = {
  title: 'drafts',
  version: 0,
  primaryKey: 'key',
  type: 'object',
  properties: {
    key: { type: 'string', maxLength: 200 },
    text: { type: 'string' },
    extra: { type: 'object' },
    updated_at: { type: 'string' },
  },
  required: ['key', 'text', 'extra', 'updated_at'],
} as const;

export type DraftDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof draftSchemaLiteral>;
export const draftSchema: RxJsonSchema<DraftDocType> = draftSchemaLiteral as unknown as RxJsonSchema<DraftDocType>;
export const draftMigrations: MigrationStrategies = {};
