// Responses: public, pulled per topic (the device keeps only the topics it
// follows); created, edited and deleted by their author.
import { z } from 'zod';
import { MODERATION_STATES, RESPONSE_TYPES } from '../../../../shared/constants.js';
import { id, time, count, score, replicated, responseVersionSchema } from '../../../../shared/schemas/answers.js';
import { badRequest } from '../../../../shared/errors.js';
import { createResponseSchema, updateResponseSchema } from '../../../../shared/schemas/responses.js';
import type { ResponseDoc, ResponseTombstone } from '../../../../shared/sync-protocol.js';
import type { ResponseVersion, Source } from '../../../../shared/types.js';
import { addResponse, deleteResponse, updateResponse } from '../../domain/responses.js';
import { parse } from '../../http/validate.js';
import type { Store } from '../../store/types.js';
import type { CollectionDescriptor } from './descriptor.js';
import { docBase, nullableString } from './push-schema.js';
import type { ResponseRow } from '../../store/rows.js';

/**
 * A live response in full; a deleted one as a slim tombstone: its id and where it sat, no text, no author.
 * `sources` and `versions`: its citations and earlier texts when already read for a whole page (see
 * `responseDocs`); otherwise read here. A moderated response carries no earlier text (as REST's).
 */
export async function responseDoc(
  store: Store,
  row: ResponseRow,
  sources?: readonly Source[],
  versions?: readonly ResponseVersion[],
): Promise<ResponseDoc | ResponseTombstone> {
  if (row.deleted === 1) {
    return { id: row.id, topic_id: row.topic_id, parent_response_id: row.parent_response_id, seq: row.seq, _deleted: true };
  }
  return {
    id: row.id,
    topic_id: row.topic_id,
    parent_response_id: row.parent_response_id,
    // The raw quote id: the client joins the quoted text from its own copy of the topic.
    quoted_response_id: row.quoted_response_id,
    type: row.type,
    content: row.content,
    sources: (sources ?? (await store.sources.forResponse(row.id))).map(({ url, name, description }) => ({ url, name, description })),
    creator_uid: row.creator_uid,
    username: row.username,
    created_at: row.created_at,
    updated_at: row.updated_at,
    edited_at: row.edited_at,
    versions: row.moderation !== null ? [] : [...(versions ?? (await store.responses.versionsOf([row.id])).get(row.id) ?? [])],
    score: row.score,
    comment_count: row.comment_count,
    delta_count: row.delta_count,
    upvotes_agree: row.upvotes_agree,
    upvotes_disagree: row.upvotes_disagree,
    downvotes_agree: row.downvotes_agree,
    downvotes_disagree: row.downvotes_disagree,
    moderation: row.moderation,
    moderation_reason: row.moderation_reason,
    seq: row.seq,
    _deleted: false,
  };
}

/** A page of rows as documents, the citations of all its live responses read in one query (no query per row). */
export async function responseDocs(store: Store, rows: readonly ResponseRow[]): Promise<Array<ResponseDoc | ResponseTombstone>> {
  const shown = rows.filter((row) => row.deleted !== 1).map((row) => row.id);
  const sources = await store.sources.forResponses(shown);
  const versions = await store.responses.versionsOf(
    rows.filter((row) => row.deleted !== 1 && row.moderation === null).map((row) => row.id),
  );
  return Promise.all(rows.map((row) => responseDoc(store, row, sources.get(row.id) ?? [], versions.get(row.id) ?? [])));
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const sourceDocSchema = z
  .object({ url: z.string(), name: z.string().nullable(), description: z.string().nullable() })
  .meta({ id: 'SourceDoc', description: "A response's citation as its author gave it." });

const documentSchema = z
  .object({
    id,
    topic_id: id,
    parent_response_id: id.nullable(),
    quoted_response_id: id.nullable(),
    type: z.enum(RESPONSE_TYPES),
    content: z.string().describe('The text as written, in the Markdown subset (see Formatting); while moderated, the replacement text.'),
    sources: z.array(sourceDocSchema),
    creator_uid: z.string(),
    username: z.string().nullable(),
    created_at: time,
    updated_at: time,
    edited_at: time.nullable(),
    versions: z
      .array(responseVersionSchema)
      .describe(
        'Earlier texts, oldest first: the one first posted and the last 20; [] while moderated. Server-owned: a push cannot change them.',
      ),
    score,
    comment_count: count,
    delta_count: count,
    upvotes_agree: count,
    upvotes_disagree: count,
    downvotes_agree: count,
    downvotes_disagree: count,
    moderation: z.enum(MODERATION_STATES).nullable(),
    moderation_reason: z.string().nullable(),
    ...replicated,
  })
  .meta({ id: 'ResponseDoc', description: 'A response as the `responses` collection syncs it.' });

export const responses: CollectionDescriptor<'responses'> = {
  documentSchema,
  privacy: 'public',
  pushSchema: z.looseObject({
    ...docBase,
    topic_id: z.string(),
    parent_response_id: nullableString,
    quoted_response_id: nullableString,
    type: z.string(),
    content: z.string(),
    sources: z.array(z.looseObject({ url: z.string(), name: nullableString, description: nullableString })).default([]),
  }),
  async pull(ctx, scope, from, limit) {
    if (!scope.topicId) throw badRequest('topic_id is required.');
    return responseDocs(ctx.store, await ctx.store.responses.changesSince(scope.topicId, from, limit, null));
  },
  async load(ctx, _user, id) {
    const row = await ctx.store.responses.get(id, null);
    return row ? responseDoc(ctx.store, row) : null;
  },
  async apply(ctx, user, master, next) {
    if (next._deleted) {
      if (master && !master._deleted) await deleteResponse(ctx, user, next.id);
      return;
    }
    const sources = next.sources.map(({ url, name, description }) => ({ url, name, description }));
    if (!master) {
      const input = parse(createResponseSchema, {
        id: next.id,
        content: next.content,
        type: next.type,
        topic_id: next.topic_id,
        parent_response_id: next.parent_response_id,
        quoted_response_id: next.quoted_response_id,
        sources,
      });
      // In the row's savepoint (push.ts), which reads the stored row back: no savepoint or read-back of its own,
      // and no second look for the id (`master` is null: push.ts has just read that none has it).
      await addResponse(ctx, user, input, { absent: true });
      return;
    }
    const input = parse(updateResponseSchema, { content: next.content, quoted_response_id: next.quoted_response_id, sources });
    await updateResponse(ctx, user, next.id, input);
  },
  dependsOn: (doc) => [doc.parent_response_id, doc._deleted ? null : doc.quoted_response_id],
  streamEvent: (change, listener) =>
    listener.topics.has(change.topicId) ? { type: 'RESYNC', collection: 'responses', topic_id: change.topicId } : null,
};
