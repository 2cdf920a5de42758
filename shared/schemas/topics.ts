// Request schemas for the topics calls (docs/API.md).
import { z } from 'zod';
import { CATEGORIES, LIMITS, MAX_PAGE_SIZE, PAGE_SIZE, SORTS, type Category } from '../constants.js';
import { MSG } from '../messages.js';
import { idSchema, readOnlyFields, wholeNumberParam } from './common.js';

const TOPIC_READ_ONLY = [
  'created_at',
  'username',
  'creator_uid',
  'score',
  'user_has_upvoted',
  'user_has_downvoted',
  'responses_count',
  'locked',
  'moderation',
  'moderation_reason',
] as const;

export const createTopicSchema = z
  .strictObject({
    ...readOnlyFields(TOPIC_READ_ONLY),
    id: idSchema.optional(),
    title: z
      .string({ error: MSG.titleEmpty })
      .trim()
      .min(1, MSG.titleEmpty)
      .max(LIMITS.title, `A topic title has at most ${LIMITS.title} characters.`),
    categories: z
      .array(z.enum(CATEGORIES, { error: `A category must be one of: ${CATEGORIES.join(', ')}.` }), {
        error: MSG.categoryMissing,
      })
      .min(1, MSG.categoryMissing)
      .max(1, 'A topic has exactly one category.'),
  })
  .transform(({ id, title, categories }): CreateTopicInput => ({ id, title, categories }));
/** What a create means once read-only fields are dropped (optional keys for in-process callers). */
export type CreateTopicInput = { id?: string | undefined; title: string; categories: Category[] };

/** The deepest `offset` of GET /api/topics (docs/API.md "Paging"). */
export const MAX_TOPICS_OFFSET = 10_000;

const intParam = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}.`)
    .meta(wholeNumberParam(min, max, fallback))
    .default(fallback);

export const listTopicsQuerySchema = z.object({
  limit: intParam('limit', 1, MAX_PAGE_SIZE, PAGE_SIZE),
  // Deeper pages cost the database a walk over every row before them; nobody scrolls 10,000 topics.
  offset: intParam('offset', 0, MAX_TOPICS_OFFSET, 0),
  sort: z.enum(SORTS, { error: `sort must be one of: ${SORTS.join(', ')}.` }).default('hot'),
  category: z.enum(CATEGORIES, { error: `category must be one of: ${CATEGORIES.join(', ')}.` }).optional(),
  search: z.string().max(LIMITS.title, 'search is too long.').optional().describe('Words of the title (prefix per word).'),
});
export type ListTopicsQuery = z.infer<typeof listTopicsQuerySchema>;
