// Version 1 of the local `profiles` schema (before moderation), kept so the migration to
// version 2 is tested against the real old shape (tests/app/moderation-migration.test.ts).
export const profileSchemaV1 = {
  title: 'profile',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 128 },
    display_name: { type: ['string', 'null'] },
    receive_weekly_summary: { type: 'boolean' },
    points: { type: 'integer' },
    // The part of `points` earned by Δ credits.
    persuasion_points: { type: 'integer' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
  },
  required: ['id', 'receive_weekly_summary', 'points', 'persuasion_points', 'seq', 'pending'],
} as const;
