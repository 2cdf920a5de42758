// The retired `drafts` collection (user database) as a device may still hold it: unfinished texts,
// moved once into a local document when the database opens (retired.ts).
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type RxJsonSchema } from 'rxdb';

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
