// Request schema for PUT /api/topics/{id}/stance.
import { z } from 'zod';
import { STANCES } from '../constants.js';
import { MSG } from '../messages.js';
import { idLikeSchema } from './common.js';

export const stanceSchema = z.strictObject({
  stance: z.enum(STANCES, { error: MSG.stanceMissing }),
  /** Responses credited with Δ for the latest change of stance (replaces that change's list). */
  credits: z.array(idLikeSchema).max(50).optional(),
});
export type StanceInput = z.infer<typeof stanceSchema>;
