// Version 1 of the local `topics` schema (before the stance counts), kept so the
// migration to version 2 is tested against the real old shape (tests/app/stances.test.ts).
import { CATEGORIES } from '../../../../shared/constants.js';

export const topicSchemaV1 = {
  title: 'topics',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    title: { type: 'string' },
    category: { type: 'string', enum: [...CATEGORIES] },
    creator_uid: { type: 'string' },
    username: { type: ['string', 'null'] },
    created_at: { type: 'string', maxLength: 40 },
    score: { type: 'integer' },
    responses_count: { type: 'integer' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
    pending_delete: { type: 'boolean' },
  },
  required: ['id', 'title', 'category', 'creator_uid', 'created_at', 'score', 'responses_count', 'seq', 'pending', 'pending_delete'],
  indexes: ['created_at', 'pending'],
} as const;
