// Version 0 of the local `profile` schema (before persuasion points), kept so the
// migration to version 1 is tested against the real old shape (tests/app/stances.test.ts).
export const profileSchemaV0 = {
  title: 'profile',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 128 },
    display_name: { type: ['string', 'null'] },
    receive_weekly_summary: { type: 'boolean' },
    points: { type: 'integer' },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
  },
  required: ['id', 'receive_weekly_summary', 'points', 'seq', 'pending'],
} as const;
