// Version 0 of the local `responses` schema (before the Δ and common-ground counters of issue 13),
// kept so the migration to version 1 is tested against the real old shape (tests/app/stances.test.ts).
export const responseSchemaV0 = {
  title: 'responses',
  version: 0,
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
    score: { type: 'integer' },
    comment_count: { type: 'integer' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
    pending_delete: { type: 'boolean' },
  },
  required: [
    'id', 'topic_id', 'type', 'content', 'sources', 'creator_uid', 'created_at', 'updated_at',
    'score', 'comment_count', 'seq', 'pending', 'pending_delete',
  ],
  indexes: [['topic_id', 'created_at'], 'pending'],
} as const;
