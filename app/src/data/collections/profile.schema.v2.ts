// Version 2 of the local `profile` schema (before push settings), kept so the migration to
// version 3 is tested against the real old shape (tests/app/push-settings-migration.test.ts).
export const profileSchemaV2 = {
  title: 'profile',
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 128 },
    display_name: { type: ['string', 'null'] },
    receive_weekly_summary: { type: 'boolean' },
    points: { type: 'integer' },
    // The part of `points` earned by Δ credits.
    persuasion_points: { type: 'integer' },
    // Moderation: the role the server read from the token, and a suspension.
    role: { type: 'string', enum: ['member', 'moderator', 'admin'] },
    suspended_until: { type: ['string', 'null'] },
    suspension_reason: { type: ['string', 'null'] },
    seq: { type: 'integer' },
    pending: { type: 'boolean' },
  },
  required: [
    'id',
    'receive_weekly_summary',
    'points',
    'persuasion_points',
    'role',
    'suspended_until',
    'suspension_reason',
    'seq',
    'pending',
  ],
} as const;
