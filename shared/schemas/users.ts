// Request schemas for the users and notifications calls.
import { z } from 'zod';
import { LIMITS } from '../constants.js';
import { MSG } from '../messages.js';

export const preferencesSchema = z.strictObject({
  receive_weekly_summary: z.boolean({ error: 'receive_weekly_summary must be true or false.' }),
});
export type PreferencesInput = z.infer<typeof preferencesSchema>;

/** The username modal: trimmed, non-empty (SPEC.md §5). */
export const usernameSchema = z
  .string({ error: MSG.usernameEmpty })
  .trim()
  .min(1, MSG.usernameEmpty)
  .max(LIMITS.displayName, `A username has at most ${LIMITS.displayName} characters.`);
