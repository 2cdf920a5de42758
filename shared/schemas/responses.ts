// Request schemas for the responses calls (docs/API.md).
import { z } from 'zod';
import { LIMITS, RESPONSE_TYPES, type ResponseType } from '../constants.js';
import { MSG } from '../messages.js';
import { idLikeSchema, idSchema, readOnlyFields, sourcesSchema, type SourceInput } from './common.js';

// Content is stored as typed but must not be blank once trimmed.
const contentSchema = z
  .string({ error: MSG.contentEmpty })
  .max(LIMITS.content, `A response has at most ${LIMITS.content} characters.`)
  .refine((text) => text.trim().length > 0, MSG.contentEmpty)
  .describe('The text, in the Markdown subset (links, emphasis, quotes, lists, code; no HTML, no images): see Formatting.');

const RESPONSE_READ_ONLY = [
  'quoted_response',
  'created_at',
  'edited_at',
  'versions',
  'username',
  'creator_uid',
  'score',
  'user_has_upvoted',
  'user_has_downvoted',
  'comment_count',
  'moderation',
  'moderation_reason',
] as const;

export const createResponseSchema = z
  .strictObject({
    ...readOnlyFields(RESPONSE_READ_ONLY),
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
  })
  .transform(({ id, content, type, topic_id, parent_response_id, quoted_response_id, sources }): CreateResponseInput => ({
    id,
    content,
    type,
    topic_id,
    parent_response_id,
    quoted_response_id,
    sources,
  }));
/** A create once read-only fields are dropped (optional keys for in-process callers). */
export type CreateResponseInput = {
  id?: string | undefined;
  content: string;
  type: ResponseType;
  topic_id?: string | null | undefined;
  parent_response_id?: string | null | undefined;
  quoted_response_id?: string | null | undefined;
  sources?: SourceInput[] | undefined;
};

// An edit changes content, quote and sources only; the rest of a
// response sent back whole is accepted and ignored.
export const updateResponseSchema = z
  .strictObject({
    ...readOnlyFields([...RESPONSE_READ_ONLY, 'id', 'type', 'topic_id', 'parent_response_id'] as const),
    content: contentSchema,
    quoted_response_id: idLikeSchema.nullish(),
    sources: sourcesSchema.optional(),
  })
  .transform(({ content, quoted_response_id, sources }): UpdateResponseInput => ({ content, quoted_response_id, sources }));
export type UpdateResponseInput = {
  content: string;
  quoted_response_id?: string | null | undefined;
  sources?: SourceInput[] | undefined;
};
