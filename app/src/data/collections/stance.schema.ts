// Local schema of `stances` (user database): the user's own stance on each topic they
// recorded one for, id = topic id. Private like votes: it lives in the user's own database, and
// taking a stance back does not exist (a change is a new stance), so it is never an RxDB
// tombstone on the wire; only a first stance the server refused is removed locally (revert).
import { withServerBaseOfUnsent } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';
import { STANCES } from '../../../../shared/constants.js';

const stanceSchemaLiteral = {
  title: 'stances',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    topic_id: { type: 'string' },
    stance: { type: 'string', enum: [...STANCES] },
    first_stance: { type: 'string', enum: [...STANCES] },
    history: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          stance: { type: 'string', enum: [...STANCES] },
          at: { type: 'string' },
        },
        required: ['stance', 'at'],
      },
    },
    credits: { type: 'array', items: { type: 'string' } },
    updated_at: { type: 'string' },
    seq: { type: 'integer' },
    // Local only: a stance or credits not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: ['id', 'topic_id', 'stance', 'first_stance', 'history', 'credits', 'updated_at', 'seq', 'pending'],
} as const;

export const stanceSchemaTyped = toTypedRxJsonSchema(stanceSchemaLiteral);
export type StanceDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof stanceSchemaTyped>;
export const stanceSchema: RxJsonSchema<StanceDocType> = stanceSchemaLiteral;
export const stanceMigrations: MigrationStrategies = {
  // v0 → v1: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  1: withServerBaseOfUnsent,
};
