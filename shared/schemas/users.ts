// Request schemas for the users and notifications calls.
import { z } from 'zod';
import { LIMITS } from '../constants.js';
import { MSG } from '../messages.js';
import { usernameProblem } from '../rules/username.js';

export const preferencesSchema = z.strictObject({
  receive_weekly_summary: z.boolean({ error: 'receive_weekly_summary must be true or false.' }),
});
export type PreferencesInput = z.infer<typeof preferencesSchema>;

/** The username modal: trimmed, non-empty. */
export const usernameSchema = z
  .string({ error: MSG.usernameEmpty })
  .trim()
  .min(1, MSG.usernameEmpty)
  .max(LIMITS.displayName, `A username has at most ${LIMITS.displayName} characters.`)
  .superRefine((name, ctx) => {
    const problem = usernameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time is HH:MM, from 00:00 to 23:59.');
const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone.');

/** Push settings (shared/push.ts PushSettings) as a sync push may set them. */
export const pushSettingsSchema = z.object({
  replies: z.boolean(),
  moderation: z.boolean(),
  // Optional, so a device from before them still sets the rest (missing reads as on).
  mentions: z.boolean().optional(),
  follows: z.boolean().optional(),
  follow_on_reply: z.boolean().optional(),
  quiet_hours: z.object({ start: clockTime, end: clockTime, time_zone: timeZone }).nullable(),
});
/** Push settings as the server answers them: every kind said. */
export const pushSettingsAnswerSchema = pushSettingsSchema.required();
