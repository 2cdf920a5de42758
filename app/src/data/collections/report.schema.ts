// The last schema of the retired `reports` collection, kept to move a device's documents into
// `marks` (retired.ts). What it held:
// Local schema of `reports` (user database): the user's own reports, one document per
// target, id = reportDocId(target_type, target_id). Private like votes: it lives in the user's own
// database; reporting the same target again updates the document, and a report is never taken back,
// so it is never an RxDB tombstone on the wire; only a first report the server refused is removed
// locally (revert).
import { withServerBaseOfUnsent } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from '../../../../shared/constants.js';

const reportSchemaLiteral = {
  title: 'reports',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 160 },
    target_type: { type: 'string', enum: [...REPORT_TARGET_TYPES] },
    target_id: { type: 'string' },
    reason: { type: 'string', enum: [...REPORT_REASONS] },
    note: { type: ['string', 'null'] },
    status: { type: 'string', enum: [...REPORT_STATUSES] },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: { type: 'integer' },
    // Local only: a report not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: ['id', 'target_type', 'target_id', 'reason', 'status', 'created_at', 'updated_at', 'seq', 'pending'],
} as const;

export const reportSchemaTyped = toTypedRxJsonSchema(reportSchemaLiteral);
export type ReportDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof reportSchemaTyped>;
export const reportSchema: RxJsonSchema<ReportDocType> = reportSchemaLiteral;
export const reportMigrations: MigrationStrategies = {
  // v0 → v1: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  1: withServerBaseOfUnsent,
};
