// The replication answers as the OpenAPI document describes them, from each collection's own
// document schema (sync/collections/<name>.ts `documentSchema`, typed by its wire document): a
// new collection is described by its descriptor, with no list to keep here.
import { z } from 'zod';
import { SYNC_COLLECTIONS } from '../../../shared/sync-protocol.js';
import { checkpointSchema, responseTombstoneSchema, tombstoneSchema } from '../../../shared/schemas/answers.js';
import { COLLECTIONS } from '../sync/collections/index.js';

const documentSchemas = SYNC_COLLECTIONS.map((collection) => COLLECTIONS[collection].documentSchema);

/** A document of any collection (the path's `{collection}` says which). */
export const syncDocumentSchema = z.union([...documentSchemas, tombstoneSchema, responseTombstoneSchema]).meta({
  id: 'SyncDocument',
  description: "A collection's document, or the slim tombstone of a deleted topic, response or notification.",
});

export const pullAnswerSchema = z
  .object({ documents: z.array(syncDocumentSchema), checkpoint: checkpointSchema })
  .meta({ id: 'SyncPull', description: 'Documents after the checkpoint, ordered by (seq, id), and the checkpoint to pull from next.' });

export const responsesPullAnswerSchema = z
  .object({
    documents: z.array(z.union([COLLECTIONS.responses.documentSchema, responseTombstoneSchema])),
    checkpoint: z.object({ topics: z.record(z.string(), checkpointSchema) }),
  })
  .meta({ id: 'SyncResponsesPull', description: "Responses of several topics at once, with each topic's checkpoint." });

export const topicsAnswerSchema = z.object({ documents: z.array(z.union([COLLECTIONS.topics.documentSchema, tombstoneSchema])) }).meta({
  id: 'SyncTopics',
  description: 'Topics as the `topics` collection syncs them: a page of a list in its order, or the asked ones the server holds newer.',
});

export const pushAnswerSchema = z
  .object({
    conflicts: z.array(syncDocumentSchema).describe("The server's state of every row it did not take exactly as sent."),
    rejected: z.array(
      z.object({
        id: z.string(),
        status: z.number().int(),
        error: z.string(),
        code: z.string().optional(),
        master: syncDocumentSchema.nullable(),
      }),
    ),
  })
  .meta({ id: 'SyncPush' });
