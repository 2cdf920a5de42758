// Version 0 of the local `topics` schema, kept so the migration to version 1 is
// tested against the real old shape (tests/app/store-migration.test.ts).
export const topicSchemaV0 = {
  title: 'topics',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    title: { type: 'string' },
    categories: { type: 'array', items: { type: 'string' } },
    creator_uid: { type: 'string' },
    username: { type: ['string', 'null'] },
    created_at: { type: 'string', maxLength: 40 },
    score: { type: 'integer' },
    responses_count: { type: 'integer' },
    seq: { type: 'integer' },
  },
  required: ['id', 'title', 'categories', 'creator_uid', 'created_at', 'score', 'responses_count', 'seq'],
  indexes: ['created_at'],
} as const;
