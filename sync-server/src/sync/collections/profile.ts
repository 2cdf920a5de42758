// Profile: one document per user (id = uid); a push may change only the
// weekly-summary preference and the push settings.
import { z } from 'zod';
import { ROLES } from '../../../../shared/constants.js';
import { id, score, time, replicated } from '../../../../shared/schemas/answers.js';
import { forbidden } from '../../../../shared/errors.js';
import { MSG } from '../../../../shared/messages.js';
import { preferencesSchema, pushSettingsAnswerSchema, pushSettingsSchema } from '../../../../shared/schemas/users.js';
import { storedPushSettings } from '../../push/settings.js';
import { normalizePushSettings } from '../../../../shared/push.js';
import type { ProfileDoc } from '../../../../shared/sync-protocol.js';
import { setPreferences, setPushSettings } from '../../domain/users.js';
import { parse } from '../../http/validate.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { UserRow } from '../../store/rows.js';

export function profileDoc(row: UserRow): ProfileDoc {
  return {
    id: row.uid,
    display_name: row.display_name,
    receive_weekly_summary: row.receive_weekly_summary === 1,
    push_settings: storedPushSettings(row.push_settings),
    points: row.points,
    persuasion_points: row.persuasion_points,
    role: row.role,
    suspended_until: row.suspended_until,
    suspension_reason: row.suspension_reason,
    seq: row.seq,
    _deleted: false,
  };
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({
    id,
    display_name: z.string().nullable(),
    receive_weekly_summary: z.boolean(),
    push_settings: pushSettingsAnswerSchema.describe('What the user wants pushed: per kind, and quiet hours.'),
    points: score,
    persuasion_points: score,
    role: z.enum(ROLES),
    suspended_until: time.nullable(),
    suspension_reason: z.string().nullable(),
    ...replicated,
  })
  .meta({ id: 'ProfileDoc', description: "The caller's profile (`id` is the uid)." });

export const profile: CollectionDescriptor<'profile'> = {
  documentSchema,
  privacy: 'private',
  // push_settings is optional: a client from before push settings pushes the preference alone.
  pushSchema: z.looseObject({ ...docBase, receive_weekly_summary: z.boolean(), push_settings: z.unknown().optional() }),
  // One document: sent when it changed after the checkpoint's seq.
  async pull(ctx, scope, from) {
    const row = await ctx.store.users.changedSince(caller(scope).uid, from.seq);
    return row ? [profileDoc(row)] : [];
  },
  async load(ctx, user, id) {
    if (id !== user.uid) return null;
    const row = await ctx.store.users.get(id);
    return row ? profileDoc(row) : null;
  },
  async apply(ctx, user, _master, next) {
    if (next.id !== user.uid) throw forbidden(MSG.loginToUpdatePreferences);
    await setPreferences(ctx, user.uid, parse(preferencesSchema, { receive_weekly_summary: next.receive_weekly_summary }));
    if (next.push_settings !== undefined)
      await setPushSettings(ctx, user.uid, normalizePushSettings(parse(pushSettingsSchema, next.push_settings)));
  },
  streamEvent: ownerOnly('profile'),
};
