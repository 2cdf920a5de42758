// Shapes of pushed documents, checked at the edge before any rule runs. Only the
// fields a push may use are required; the domain's own zod schemas then check
// the values exactly as for the REST call. Unknown fields pass (local-only ones).
import { z } from 'zod';
import type { SyncCollection } from '../../../shared/sync-protocol.js';

const base = { id: z.string().min(1).max(200), _deleted: z.boolean().optional().default(false) };
const nullableString = z.string().nullish().transform((v) => v ?? null);

export const DOC_SCHEMAS: { [C in SyncCollection]: z.ZodType } = {
  topics: z.looseObject({ ...base, title: z.string(), category: z.string() }),
  responses: z.looseObject({
    ...base,
    topic_id: z.string(),
    parent_response_id: nullableString,
    quoted_response_id: nullableString,
    type: z.string(),
    content: z.string(),
    sources: z
      .array(z.looseObject({ url: z.string(), name: nullableString, description: nullableString }))
      .default([]),
  }),
  votes: z.looseObject({ ...base, target_type: z.string(), target_id: z.string(), upvoted: z.boolean() }),
  notifications: z.looseObject({ ...base, is_read: z.boolean() }),
  profile: z.looseObject({ ...base, receive_weekly_summary: z.boolean() }),
};
