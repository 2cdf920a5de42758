// Version 3 of the local `topics` schema (before opinion groups), kept so the migration
// to version 4 is tested against the real old shape (tests/app/opinion-groups-migration.test.ts).
import { CATEGORIES } from '../../../../shared/constants.js';

export const topicSchemaV3 = {
  title: 'topics',
  version: 3,
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
    // Participants by current stance, and how many changed their mind here (the server counts them).
    stance_agree: { type: 'integer' },
    stance_disagree: { type: 'integer' },
    stance_unsure: { type: 'integer' },
    minds_changed: { type: 'integer' },
    // Moderation: locked takes no new responses; while `moderation` is set the title is
    // the replacement text the server sends (the author's own is never synced).
    locked: { type: 'boolean' },
    moderation: { type: ['string', 'null'], enum: ['removed', 'hidden', null] },
    moderation_reason: { type: ['string', 'null'] },
    seq: { type: 'integer' },
    // Local only: a user action not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only: deleted here, hidden at once, a tombstone once the server confirms.
    pending_delete: { type: 'boolean' },
  },
  required: [
    'id',
    'title',
    'category',
    'creator_uid',
    'created_at',
    'score',
    'responses_count',
    'stance_agree',
    'stance_disagree',
    'stance_unsure',
    'minds_changed',
    'locked',
    'moderation',
    'moderation_reason',
    'seq',
    'pending',
    'pending_delete',
  ],
  // `pending` is indexed for the pending-changes count the status bar keeps live.
  indexes: ['created_at', 'pending'],
} as const;
