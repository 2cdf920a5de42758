// Building blocks for the request schemas: ids, trimmed text, sources.
import { z } from 'zod';
import { ID_PATTERN, LIMITS } from '../constants.js';

const ID_FORMAT = 'An id is 1–64 characters of letters, digits, "_" or "-".';

export const idSchema = z.string({ error: 'An id must be a string.' }).regex(ID_PATTERN, ID_FORMAT);

/** The product specification sends topic_id as an integer; ids are opaque strings, so accept both. */
export const idLikeSchema = z
  .union([idSchema, z.number().int(ID_FORMAT).nonnegative(ID_FORMAT)], { error: 'An id must be a string.' })
  .transform((value) => String(value));

/**
 * How the OpenAPI document describes a whole number read from a query string (`.meta(…)` on its
 * string schema): an integer in the bounds the server checks, so a client generated from the document
 * sends only numbers the server takes.
 */
export const wholeNumberParam = (minimum: number, maximum: number, fallback?: number) => ({
  type: 'integer',
  minimum,
  maximum,
  // Said in words: zod writes no `default` for a text read as a number.
  ...(fallback === undefined ? {} : { description: `Default ${fallback}.` }),
});

export const sourceInputSchema = z.strictObject({
  id: idSchema.optional(),
  url: z
    .string({ error: 'A source needs a URL.' })
    .trim()
    .min(1, 'A source needs a URL.')
    .max(LIMITS.sourceUrl, `A source URL has at most ${LIMITS.sourceUrl} characters.`)
    .refine(isHttpUrl, 'A source URL must start with http:// or https://.'),
  name: z.string().trim().max(LIMITS.sourceName, `A source name has at most ${LIMITS.sourceName} characters.`).nullish(),
  description: z
    .string()
    .trim()
    .max(LIMITS.sourceDescription, `A source description has at most ${LIMITS.sourceDescription} characters.`)
    .nullish(),
});
export type SourceInput = z.infer<typeof sourceInputSchema>;

export const sourcesSchema = z
  .array(sourceInputSchema, { error: 'Sources must be a list.' })
  .max(LIMITS.sourcesPerResponse, `A response has at most ${LIMITS.sourcesPerResponse} sources.`);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Fields of an item that the server computes. A client that sends an
 * item back whole (GET, change, PUT) includes them: they are accepted and ignored,
 * never applied (derived fields are the server's alone). Any other unknown
 * field is still refused by the strict schemas.
 */
export function readOnlyFields<K extends string>(keys: readonly K[]): Record<K, z.ZodOptional<z.ZodUnknown>> {
  return Object.fromEntries(
    keys.map((key) => [key, z.unknown().optional().describe('Computed by the server: accepted and ignored.')]),
  ) as Record<K, z.ZodOptional<z.ZodUnknown>>;
}
