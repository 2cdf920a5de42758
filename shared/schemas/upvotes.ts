// Request schemas for POST and DELETE /upvotes, /downvotes and /passes.
import { z } from 'zod';
import { TARGET_TYPES } from '../constants.js';
import { MSG } from '../messages.js';
import { idLikeSchema } from './common.js';

export const upvoteSchema = z.strictObject({
  target_type: z.enum(TARGET_TYPES, { error: 'target_type must be topic or response.' }),
  target_id: z
    .unknown()
    .refine((value) => value !== undefined, 'target_id is required.')
    .pipe(idLikeSchema),
  // Sent by the app on POST; the server always uses the real creator instead.
  target_creator_uid: z.string().max(128).nullish(),
});
export type UpvoteInput = z.infer<typeof upvoteSchema>;

/** A disagree (downvote) or a pass: on a response only (a topic's question is answered by the stance). */
export const responseVoteSchema = z.strictObject({
  ...upvoteSchema.shape,
  target_type: z.literal('response', { error: MSG.onlyResponsesTakeOpinionVotes }),
});
