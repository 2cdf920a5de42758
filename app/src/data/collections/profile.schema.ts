// Local schema of `profile` (user database): one document, id = uid.
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const profileSchemaLiteral = {
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

export const profileSchemaTyped = toTypedRxJsonSchema(profileSchemaLiteral);
export type ProfileDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof profileSchemaTyped>;
export const profileSchema: RxJsonSchema<ProfileDocType> = profileSchemaLiteral;
export const profileMigrations: MigrationStrategies = {};
