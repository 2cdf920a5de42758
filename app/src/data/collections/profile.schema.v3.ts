// Version 3 of the local `profile` schema (push settings before mentions, follows and follow-on-reply,
// as first shipped), kept so the migration to version 4 is tested against the real old shape.
export const profileSchemaV3 = {
  title: 'profile',
  version: 3,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 128 },
    display_name: { type: ['string', 'null'] },
    receive_weekly_summary: { type: 'boolean' },
    // What the user wants pushed (shared/push.ts PushSettings), synced like the weekly-summary preference.
    push_settings: {
      type: 'object',
      properties: {
        replies: { type: 'boolean' },
        moderation: { type: 'boolean' },
        quiet_hours: {
          type: ['object', 'null'],
          properties: { start: { type: 'string' }, end: { type: 'string' }, time_zone: { type: 'string' } },
          required: ['start', 'end', 'time_zone'],
        },
      },
      required: ['replies', 'moderation', 'quiet_hours'],
    },
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
    'push_settings',
    'points',
    'persuasion_points',
    'role',
    'suspended_until',
    'suspension_reason',
    'seq',
    'pending',
  ],
} as const;
