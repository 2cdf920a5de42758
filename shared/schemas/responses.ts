// Request schemas for the responses calls of SPEC.md §7.
import { z } from 'zod';
import { LIMITS, RESPONSE_TYPES } from '../constants.js';
import { MSG } from '../messages.js';
import { idLikeSchema, idSchema, sourcesSchema } from './common.js';

// Content is stored as typed (DESIGN.md §4) but must not be blank once trimmed.
const contentSchema = z
  .string({ error: MSG.contentEmpty })
  .max(LIMITS.content, `A response has at most ${LIMITS.content} characters.`)
  .refine((text) => text.trim().length > 0, MSG.contentEmpty);

export const createResponseSchema = z
  .strictObject({
    id: idSchema.optional(),
    content: contentSchema,
    type: z.enum(RESPONSE_TYPES, { error: 'type must be one of: for, against, neutral.' }),
    topic_id: idLikeSchema.nullish(),
    parent_response_id: idLikeSchema.nullish(),
    quoted_response_id: idLikeSchema.nullish(),
    sources: sourcesSchema.optional(),
  })
  .refine((body) => body.topic_id != null || body.parent_response_id != null, {
    message: 'A response needs a topic_id or a parent_response_id.',
  });
export type CreateResponseInput = z.infer<typeof createResponseSchema>;

export const updateResponseSchema = z.strictObject({
  content: contentSchema,
  quoted_response_id: idLikeSchema.nullish(),
  sources: sourcesSchema.optional(),
});
export type UpdateResponseInput = z.infer<typeof updateResponseSchema>;
