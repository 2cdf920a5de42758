// The answers of the moderation calls as zod schemas: the OpenAPI document describes them
// (each route's declaration) and shared/types.ts infers the types from them.
import { z } from 'zod';
import { MODERATION_LOG_ACTIONS, MODERATION_STATES, REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES, ROLES } from '../constants.js';
import { sourceSchema, time } from './answers.js';

const targetType = z.enum(REPORT_TARGET_TYPES);

export const reportSchema = z
  .object({
    id: z.string().describe('`{target_type}_{target_id}`: the id of the `reports` sync document.'),
    target_type: targetType,
    target_id: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    created_at: time,
    updated_at: time,
  })
  .meta({ id: 'Report', description: "The caller's report of one target." });

export const queueTargetSchema = z
  .object({
    text: z.string().describe("The author's own text (a topic's title, a response's content, a user's name), even when removed or hidden."),
    sources: z.array(sourceSchema),
    topic_id: z.string().nullable(),
    topic_title: z.string().nullable(),
    link: z.string().describe('`/topics/{id}`, `/topics/{topic}#response-{id}` or `/users/{uid}`.'),
    author_uid: z.string(),
    author_name: z.string().nullable(),
    author_role: z.enum(ROLES),
    created_at: time.nullable(),
    deleted: z.boolean(),
    moderation: z.enum(MODERATION_STATES).nullable(),
    moderation_reason: z.string().nullable(),
    locked: z.boolean(),
    suspended_until: time.nullable(),
  })
  .meta({ id: 'QueueTarget' });

export const moderationQueuePageSchema = z
  .object({
    items: z.array(
      z.object({
        target_type: targetType,
        target_id: z.string(),
        status: z.enum(REPORT_STATUSES),
        target: queueTargetSchema,
        reports: z.array(
          z.object({
            reporter_uid: z.string(),
            reporter_name: z.string().nullable(),
            reason: z.enum(REPORT_REASONS),
            note: z.string().nullable(),
            status: z.enum(REPORT_STATUSES),
            created_at: time,
            updated_at: time,
          }),
        ),
        reporters: z.number().int().nonnegative(),
        first_reported_at: time,
        last_reported_at: time,
      }),
    ),
    total: z.number().int().nonnegative(),
  })
  .meta({ id: 'ModerationQueuePage', description: 'Reported targets, hidden ones first, then most reporters, then oldest.' });

export const moderationLogEntrySchema = z
  .object({
    id: z.string(),
    moderator_uid: z.string().nullable().describe('null: the automatic hide.'),
    moderator_name: z.string().nullable(),
    action: z.enum(MODERATION_LOG_ACTIONS),
    target_type: targetType,
    target_id: z.string(),
    reason: z.string(),
    days: z.number().int().nullable(),
    created_at: time,
    target_name: z
      .string()
      .nullable()
      .describe("The topic's title, the response's text (its author's own; up to 200 characters) or the user's name; null when gone."),
    target_topic_id: z.string().nullable().describe("A response's topic, to link to it; null for other targets."),
  })
  .meta({ id: 'ModerationLogEntry' });

export const moderationLogPageSchema = z
  .object({ items: z.array(moderationLogEntrySchema), total: z.number().int().nonnegative() })
  .meta({ id: 'ModerationLogPage' });

export const moderatedOriginalSchema = z
  .object({
    target_type: z.enum(['topic', 'response']),
    target_id: z.string(),
    text: z.string(),
    sources: z.array(sourceSchema),
    quoted_response_id: z.string().nullable(),
    moderation: z.enum(MODERATION_STATES).nullable(),
    moderation_reason: z.string().nullable(),
  })
  .meta({ id: 'ModeratedOriginal' });

export const moderatedUserSchema = z
  .object({
    uid: z.string(),
    display_name: z.string().nullable(),
    role: z.enum(ROLES),
    suspended_until: time.nullable().describe("The running suspension's end (`9999-12-31T23:59:59.999Z`: for good); null when none runs."),
    suspension_reason: z.string().nullable().describe("The running suspension's reason; null when none runs."),
  })
  .meta({ id: 'ModeratedUser', description: "A user's standing as moderators act on it: their role and any running suspension." });

export const roleChangeSchema = z.object({ uid: z.string(), role: z.enum(ROLES) }).meta({ id: 'RoleChange' });
