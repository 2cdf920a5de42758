// Request schemas of moderation: reports, moderators' actions, the queue's query, roles.
import { z } from 'zod';
import {
  MAX_SUSPENSION_DAYS,
  MODERATION_ACTIONS,
  MODERATION_REASON_MAX,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_TARGET_TYPES,
} from '../constants.js';
import { MSG } from '../messages.js';
import { idLikeSchema } from './common.js';

/** A target's id: an item id, or a Firebase uid (1–128 characters, no control characters). */
const targetIdSchema = z.union([
  idLikeSchema,
  z
    .string({ error: 'target_id is required.' })
    .min(1, 'target_id is required.')
    .max(128, 'A user id has at most 128 characters.')
    .refine((uid) => !Array.from(uid).some((char) => char.charCodeAt(0) < 0x20), 'A user id has no control characters.'),
]);

const targetTypeSchema = z.enum(REPORT_TARGET_TYPES, { error: 'target_type must be topic, response or user.' });

export const createReportSchema = z.strictObject({
  target_type: targetTypeSchema,
  target_id: targetIdSchema,
  reason: z.enum(REPORT_REASONS, { error: MSG.reportReasonMissing }),
  note: z
    .string()
    .trim()
    .max(REPORT_NOTE_MAX, MSG.reportNoteTooLong)
    .nullish()
    .transform((note) => (note ? note : null)),
});
export type CreateReportInput = z.infer<typeof createReportSchema>;

export const moderationActionSchema = z
  .strictObject({
    action: z.enum(MODERATION_ACTIONS, { error: `action must be one of: ${MODERATION_ACTIONS.join(', ')}.` }),
    target_type: targetTypeSchema,
    target_id: targetIdSchema,
    reason: z
      .string({ error: MSG.moderationReasonEmpty })
      .trim()
      .min(1, MSG.moderationReasonEmpty)
      .max(MODERATION_REASON_MAX, `A reason has at most ${MODERATION_REASON_MAX} characters.`),
    /** suspend only: for this many days; omitted or null: for good. */
    days: z
      .number({ error: 'days must be a whole number of days.' })
      .int('days must be a whole number of days.')
      .min(1, 'days must be at least 1.')
      .max(MAX_SUSPENSION_DAYS, `days must be at most ${MAX_SUSPENSION_DAYS}.`)
      .nullish(),
  })
  .refine((body) => body.days == null || body.action === 'suspend', { message: 'days goes with suspend only.' });
export type ModerationActionInput = z.infer<typeof moderationActionSchema>;

export const moderationQueueQuerySchema = z.object({
  status: z.enum(REPORT_STATUSES, { error: 'status must be open or handled.' }).default('open'),
  limit: z.coerce.number().int().min(0).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

export const moderationLogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** PUT /api/users/{uid}/role: what an admin may set from the app (admins are made with `npm run users:role`). */
export const setRoleSchema = z.strictObject({
  role: z.enum(['member', 'moderator'], { error: 'role must be member or moderator.' }),
});
