// Version 4 of the local `responses` schema (before the edit history and the disagrees by side),
// kept so the migration to version 5 is tested against the real old shape
// (tests/app/response-v5-migration.test.ts).
export const responseSchemaV4 = {
  title: 'responses',
  version: 4,
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
    score: { type: 'integer' },
    comment_count: { type: 'integer' },
    // Δ credits received, and live upvotes by the voter's stance at the time (the server counts them).
    delta_count: { type: 'integer' },
    upvotes_agree: { type: 'integer' },
    upvotes_disagree: { type: 'integer' },
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
    'score',
    'comment_count',
    'delta_count',
    'upvotes_agree',
    'upvotes_disagree',
    'moderation',
    'moderation_reason',
    'seq',
    'pending',
    'pending_delete',
  ],
  // Dexie needs every indexed field required (SYNC-NOTES); a topic's tree is read through this index.
  indexes: [['topic_id', 'created_at'], 'pending'],
} as const;
