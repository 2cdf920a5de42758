// Local schema of `profile` (user database): one document, id = uid.
import type { ExtractDocumentTypeFromTypedRxJsonSchema, MigrationStrategies, RxJsonSchema } from 'rxdb';

export const profileSchemaLiteral = {
  title: 'profile',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 128 },
    display_name: { type: ['string', 'null'] },
    receive_weekly_summary: { type: 'boolean' },
    points: { type: 'integer' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
  },
  required: ['id', 'receive_weekly_summary', 'points', 'seq', 'pending'],
} as const;

export type ProfileDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof profileSchemaLiteral>;
export const profileSchema: RxJsonSchema<ProfileDocType> = profileSchemaLiteral as unknown as RxJsonSchema<ProfileDocType>;
export const profileMigrations: MigrationStrategies = {};
