// Building blocks of the push schemas: only the fields a push may use are
// required; unknown fields pass (the client's local-only ones are ignored).
import { z } from 'zod';

export const docBase = { id: z.string().min(1).max(200), _deleted: z.boolean().optional().default(false) };
export const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
