// Stances: the caller's own, one document per topic (id = topic id). Private: pulled,
// pushed, loaded and streamed for their owner only. A push records the stance (and the Δ credits
// of its latest change) through the same domain operation as PUT /api/topics/{id}/stance.
import { z } from 'zod';
import { id, time, replicated } from '../../../../shared/schemas/answers.js';
import { STANCES } from '../../../../shared/constants.js';
import { badRequest } from '../../../../shared/errors.js';
import { MSG } from '../../../../shared/messages.js';
import { stanceSchema } from '../../../../shared/schemas/stances.js';
import type { StanceDoc } from '../../../../shared/sync-protocol.js';
import { recordStance, toMyStance } from '../../domain/stances.js';
import { parse } from '../../http/validate.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { StanceRow } from '../../store/rows.js';

/** The REST shape (GET /api/topics/{id}/stance) as a replicated document: id = topic id. */
export function stanceDoc(row: StanceRow): StanceDoc {
  return { id: row.topic_id, ...toMyStance(row), seq: row.seq, _deleted: false };
}

const firstStance = z.enum(STANCES, { error: MSG.stanceMissing });

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({
    id,
    topic_id: id,
    stance: z.enum(STANCES),
    first_stance: z.enum(STANCES),
    history: z.array(z.object({ stance: z.enum(STANCES), at: time })),
    credits: z.array(id),
    updated_at: time,
    ...replicated,
  })
  .meta({ id: 'StanceDoc', description: "The caller's stance on one topic (`id` is the topic id)." });

export const stances: CollectionDescriptor<'stances'> = {
  documentSchema,
  privacy: 'private',
  // Values are checked by the REST call's schema in apply; here only the shape a push may use.
  pushSchema: z.looseObject({
    ...docBase,
    stance: z.string(),
    first_stance: z.string().nullish(),
    credits: z.array(z.unknown()).default([]),
  }),
  pull: async (ctx, scope, from, limit) => (await ctx.store.stances.changesSince(caller(scope).uid, from, limit)).map(stanceDoc),
  async load(ctx, user, id) {
    const row = await ctx.store.stances.get(user.uid, id);
    return row ? stanceDoc(row) : null;
  },
  async apply(ctx, user, master, next) {
    // A stance is never removed (the user records "unsure" instead), so a stance is never a tombstone.
    if (next._deleted) throw badRequest('A stance cannot be deleted; record "unsure" instead.');
    const input = parse(stanceSchema, { stance: next.stance, credits: next.credits });
    // The device's "before" counts only for the first record; the server's stays fixed afterwards.
    const first = master ? undefined : parse(z.object({ first_stance: firstStance.nullish() }), { first_stance: next.first_stance });
    await recordStance(ctx, user.uid, next.id, { ...input, first_stance: first?.first_stance ?? undefined });
  },
  streamEvent: ownerOnly('stances'),
};
