// Local schema of `responses` (public database): the responses of the topics
// opened or saved for offline, replicated per topic. Version 1 adds the Δ and
// common-ground counters; version 2 moderation; version 3 edited_at;
// version 4 server_base (the user's own writes go through the outbox, outbox.ts); version 5 the
// earlier versions of an edited response (`versions`, server-owned) and the disagrees by side
// (common ground and the strongest case count them).
// Older: response.schema.v0.ts, v1.ts, v2.ts, v4.ts.
import { withServerBaseOfUnsent } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const responseSchemaLiteral = {
  title: 'responses',
  version: 5,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    topic_id: { type: 'string', maxLength: 64 },
    parent_response_id: { type: ['string', 'null'] },
    quoted_response_id: { type: ['string', 'null'] },
    type: { type: 'string', enum: ['for', 'against', 'neutral'] },
    content: { type: 'string' },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          name: { type: ['string', 'null'] },
          description: { type: ['string', 'null'] },
        },
        required: ['url'],
      },
    },
    creator_uid: { type: 'string' },
    username: { type: ['string', 'null'] },
    created_at: { type: 'string', maxLength: 40 },
    updated_at: { type: 'string' },
    // When the author last changed content, quote or sources (null: never): the "edited" mark.
    edited_at: { type: ['string', 'null'] },
    // Earlier texts, oldest first, the last 20 (shared/rules/edit-history.ts): the "edited" mark's
    // list, readable offline. Written by pulls only; [] while moderated.
    versions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          version: { type: 'integer' },
          content: { type: 'string' },
          created_at: { type: 'string' },
        },
        required: ['version', 'content', 'created_at'],
      },
    },
    score: { type: 'integer' },
    comment_count: { type: 'integer' },
    // Δ credits received, and live upvotes by the voter's stance at the time (the server counts them).
    delta_count: { type: 'integer' },
    upvotes_agree: { type: 'integer' },
    upvotes_disagree: { type: 'integer' },
    // Live disagrees by the voter's stance at the time: a side's disagrees count against its approval.
    downvotes_agree: { type: 'integer' },
    downvotes_disagree: { type: 'integer' },
    // Moderation: while set, content is the replacement text the server sends.
    moderation: { type: ['string', 'null'], enum: ['removed', 'hidden', null] },
    moderation_reason: { type: ['string', 'null'] },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
    pending_delete: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: [
    'id',
    'topic_id',
    'type',
    'content',
    'sources',
    'creator_uid',
    'created_at',
    'updated_at',
    'edited_at',
    'versions',
    'score',
    'comment_count',
    'delta_count',
    'upvotes_agree',
    'upvotes_disagree',
    'downvotes_agree',
    'downvotes_disagree',
    'moderation',
    'moderation_reason',
    'seq',
    'pending',
    'pending_delete',
  ],
  // Dexie needs every indexed field required (SYNC-NOTES); a topic's tree is read through this index.
  indexes: [['topic_id', 'created_at'], 'pending'],
} as const;

export const responseSchemaTyped = toTypedRxJsonSchema(responseSchemaLiteral);
export type ResponseDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof responseSchemaTyped>;
export const responseSchema: RxJsonSchema<ResponseDocType> = responseSchemaLiteral;
export const responseMigrations: MigrationStrategies = {
  // v0 → v1: the counters start at 0, as the server's do for every existing response (a later
  // change there comes with a new seq, so the next pull brings it).
  1: (old: Record<string, unknown>) => ({ ...old, delta_count: 0, upvotes_agree: 0, upvotes_disagree: 0 }),
  // v1 → v2: moderation. Nothing was moderated before; a later moderation comes with a new seq.
  2: (old: Record<string, unknown>) => ({ ...old, moderation: null, moderation_reason: null }),
  // v2 → v3: the "edited" mark. The server's column starts NULL for every row, and an
  // edit since comes with a new seq; a value the previous app already stored (production stores
  // unknown fields as they came) is kept.
  3: (old: Record<string, unknown>) => ({ ...old, edited_at: old.edited_at ?? null }),
  // v3 → v4: server_base, set from now on when a stored response first gets a pending change;
  // a change the previous app had not sent gets one here (server-base.ts).
  4: withServerBaseOfUnsent,
  // v4 → v5: the edit history and the disagrees by side. No version is known for a stored response
  // until its next change on the server (an edit comes with a new seq, so the next pull brings its
  // versions); the server counted the existing disagrees once and gave each response that has any a
  // new seq, so the next pull brings them. A value the previous app stored as it came is kept.
  5: (old: Record<string, unknown>) => ({
    ...old,
    versions: Array.isArray(old.versions) ? old.versions : [],
    downvotes_agree: old.downvotes_agree ?? 0,
    downvotes_disagree: old.downvotes_disagree ?? 0,
  }),
};
