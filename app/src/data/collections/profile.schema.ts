// Local schema of `profile` (user database): one document, id = uid. Version 1 adds
// persuasion points; version 2 the role and suspension; version 3 the push
// settings; version 4 their mention and follow kinds and follow-on-reply.
// Older: profile.schema.v0.ts, v1.ts, v2.ts, v3.ts.
import { withServerBaseOfUnsent } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';

const profileSchemaLiteral = {
  title: 'profile',
  version: 5,
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
        mentions: { type: 'boolean' },
        follows: { type: 'boolean' },
        follow_on_reply: { type: 'boolean' },
        quiet_hours: {
          type: ['object', 'null'],
          properties: { start: { type: 'string' }, end: { type: 'string' }, time_zone: { type: 'string' } },
          required: ['start', 'end', 'time_zone'],
        },
      },
      required: ['replies', 'moderation', 'mentions', 'follows', 'follow_on_reply', 'quiet_hours'],
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
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
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

export const profileSchemaTyped = toTypedRxJsonSchema(profileSchemaLiteral);
export type ProfileDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof profileSchemaTyped>;
export const profileSchema: RxJsonSchema<ProfileDocType> = profileSchemaLiteral;
export const profileMigrations: MigrationStrategies = {
  // v0 → v1: no Δ was ever credited before persuasion points existed (the server starts at 0 too).
  1: (old: Record<string, unknown>) => ({ ...old, persuasion_points: 0 }),
  // v1 → v2: a member, not suspended, until the next pull says otherwise (the server re-stamps changed profiles).
  2: (old: Record<string, unknown>) => ({ ...old, role: 'member', suspended_until: null, suspension_reason: null }),
  // v2 → v3: the defaults (everything pushed, no quiet hours), as the server's column starts.
  3: (old: Record<string, unknown>) => ({ ...old, push_settings: { replies: true, moderation: true, quiet_hours: null } }),
  // v3 → v4: the new kinds on and following what one joins, as a server reads a setting it never stored.
  4: (old: Record<string, unknown>) => ({
    ...old,
    push_settings: { ...(old.push_settings as object), mentions: true, follows: true, follow_on_reply: true },
  }),
  // v4 → v5: server_base (the outbox sends every collection's changes), set from now on when a
  // stored document first gets a pending change; a change the previous app had not sent gets one here.
  5: withServerBaseOfUnsent,
};
