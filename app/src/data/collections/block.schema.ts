// The last schema of the retired `blocks` collection, kept to move a device's documents into
// `marks` (retired.ts). What it held:
// Local schema of `blocks` (user database): the users the signed-in user blocked, one
// document per blocked user (id = their uid). Unblocking sets blocked=false (never an RxDB
// tombstone, like a taken-back vote), so an unsent unblock still replicates and the toggle goes
// both ways. Private: it lives in the user's own database only.
import { withToggledServerBase } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const blockSchemaLiteral = {
  title: 'blocks',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 128 },
    blocked_uid: { type: 'string' },
    // The blocked user's name as the server knows it (the device's copy until the server's arrives).
    display_name: { type: ['string', 'null'] },
    blocked: { type: 'boolean' },
    updated_at: { type: 'string' },
    seq: { type: 'integer' },
    // Local only: a block or unblock not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: ['id', 'blocked_uid', 'blocked', 'updated_at', 'seq', 'pending'],
} as const;

export const blockSchemaTyped = toTypedRxJsonSchema(blockSchemaLiteral);
export type BlockDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof blockSchemaTyped>;
export const blockSchema: RxJsonSchema<BlockDocType> = blockSchemaLiteral;
export const blockMigrations: MigrationStrategies = {
  // v0 → v1: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  1: withToggledServerBase('blocked'),
};
