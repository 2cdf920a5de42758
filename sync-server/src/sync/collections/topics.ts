// Topics: public; created and deleted by their author (a topic is never edited).
import { z } from 'zod';
import { CATEGORIES, MODERATION_STATES } from '../../../../shared/constants.js';
import { id, time, count, score, replicated } from '../../../../shared/schemas/answers.js';
import type { Category } from '../../../../shared/constants.js';
import { badRequest } from '../../../../shared/errors.js';
import { createTopicSchema } from '../../../../shared/schemas/topics.js';
import type { TopicDoc, TopicTombstone } from '../../../../shared/sync-protocol.js';
import { addTopic, deleteTopic } from '../../domain/topics.js';
import { parse } from '../../http/validate.js';
import type { CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import type { TopicRow } from '../../store/rows.js';

/** A live topic in full; a deleted one as a slim tombstone (nothing of what its author wrote). */
export function topicDoc(row: TopicRow): TopicDoc | TopicTombstone {
  if (row.deleted === 1) return { id: row.id, seq: row.seq, _deleted: true };
  return {
    id: row.id,
    title: row.title,
    category: row.category as Category,
    creator_uid: row.creator_uid,
    username: row.username,
    created_at: row.created_at,
    score: row.score,
    responses_count: row.responses_count,
    stance_agree: row.stance_agree,
    stance_disagree: row.stance_disagree,
    stance_unsure: row.stance_unsure,
    minds_changed: row.minds_changed,
    locked: row.locked === 1,
    moderation: row.moderation,
    moderation_reason: row.moderation_reason,
    opinion_groups: row.opinion_groups,
    seq: row.seq,
    _deleted: false,
  };
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = z
  .object({
    id,
    title: z.string(),
    category: z.enum(CATEGORIES),
    creator_uid: z.string(),
    username: z.string().nullable(),
    created_at: time,
    score,
    responses_count: count,
    stance_agree: count,
    stance_disagree: count,
    stance_unsure: count,
    minds_changed: count,
    locked: z.boolean(),
    moderation: z.enum(MODERATION_STATES).nullable(),
    moderation_reason: z.string().nullable(),
    opinion_groups: z
      .string()
      .nullable()
      .describe(
        "The opinion groups summary as JSON text of OpinionGroupsSummary (shared/rules/opinion-groups.ts): group sizes and each group's shares of upvoters per response, never who is in a group; null until first computed.",
      ),
    ...replicated,
  })
  .meta({ id: 'TopicDoc', description: 'A topic as the `topics` collection syncs it.' });

export const topics: CollectionDescriptor<'topics'> = {
  documentSchema,
  privacy: 'public',
  pushSchema: z.looseObject({ ...docBase, title: z.string(), category: z.string() }),
  pull: async (ctx, _scope, from, limit) => (await ctx.store.topics.changesSince(from, limit, null)).map(topicDoc),
  async load(ctx, _user, id) {
    const row = await ctx.store.topics.get(id, null);
    return row ? topicDoc(row) : null;
  },
  async apply(ctx, user, master, next) {
    if (next._deleted) {
      if (master && !master._deleted) await deleteTopic(ctx, user, next.id);
      return;
    }
    if (master) throw badRequest('A topic cannot be changed after it is created.');
    // In the row's savepoint (push.ts), which reads the stored row back.
    await addTopic(ctx, user, parse(createTopicSchema, { id: next.id, title: next.title, categories: [next.category] }));
  },
  streamEvent: () => ({ type: 'RESYNC', collection: 'topics' }),
};
