// Local schema of `drafts` (user database): unfinished texts; never replicated.
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const draftSchemaLiteral = {
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

export const draftSchemaTyped = toTypedRxJsonSchema(draftSchemaLiteral);
export type DraftDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof draftSchemaTyped>;
export const draftSchema: RxJsonSchema<DraftDocType> = draftSchemaLiteral;
export const draftMigrations: MigrationStrategies = {};
