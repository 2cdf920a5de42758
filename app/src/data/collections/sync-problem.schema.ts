// The retired `sync_problems` collection (user database) as a device may still hold it: writes the
// server refused or overruled, moved once into a local document when the database opens (retired.ts).
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type RxJsonSchema } from 'rxdb';

const syncProblemSchemaLiteral = {
  title: 'sync_problems',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    kind: { type: 'string', enum: ['rejected', 'conflict'] },
    // 'collection' is a reserved RxDocument property name (SC17).
    target_collection: { type: 'string' },
    itemId: { type: 'string' },
    action: { type: 'string' },
    error: { type: 'string' },
    status: { type: 'integer' },
    localState: { type: 'object' },
    serverState: { type: ['object', 'null'] },
    created_at: { type: 'string', maxLength: 40 },
  },
  required: ['id', 'kind', 'target_collection', 'itemId', 'action', 'error', 'status', 'localState', 'created_at'],
  indexes: ['created_at'],
} as const;

export const syncProblemSchemaTyped = toTypedRxJsonSchema(syncProblemSchemaLiteral);
export type SyncProblemDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof syncProblemSchemaTyped>;
export const syncProblemSchema: RxJsonSchema<SyncProblemDocType> = syncProblemSchemaLiteral;
