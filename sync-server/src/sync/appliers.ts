// What a pushed document means, per collection: load the server's state as a
// document, and carry out the user's change through the SAME domain operation
// and zod schema as the REST call (DESIGN.md §5: one code path, not a copy).
import { MSG } from '../../../shared/messages.js';
import { createResponseSchema, updateResponseSchema } from '../../../shared/schemas/responses.js';
import { createTopicSchema } from '../../../shared/schemas/topics.js';
import { preferencesSchema } from '../../../shared/schemas/users.js';
import type { SyncCollection, SyncDocs } from '../../../shared/sync-protocol.js';
import type { AuthUser } from '../auth/verifier.js';
import type { DomainContext } from '../domain/context.js';
import { markNotificationRead } from '../domain/notifications.js';
import { createResponse, deleteResponse, updateResponse } from '../domain/responses.js';
import { createTopic, deleteTopic } from '../domain/topics.js';
import { setPreferences } from '../domain/users.js';
import { setVote } from '../domain/votes.js';
import { badRequest, forbidden } from '../http/errors.js';
import { parse } from '../http/validate.js';
import { notificationDoc, profileDoc, responseDoc, topicDoc, voteDoc } from './docs.js';

export interface Applier<C extends SyncCollection> {
  /** The server's current state of the document as the caller may see it, or null. */
  load(ctx: DomainContext, user: AuthUser, id: string): SyncDocs[C] | null;
  /** Applies new (which differs from master on user fields); throws HttpError like the REST call. */
  apply(ctx: DomainContext, user: AuthUser, master: SyncDocs[C] | null, next: SyncDocs[C]): void;
  /** Ids of other documents of the same push this one needs first (a reply after its parent). */
  dependsOn?(doc: SyncDocs[C]): (string | null)[];
}

const topics: Applier<'topics'> = {
  load(ctx, _user, id) {
    const row = ctx.store.topics.get(id, null);
    return row ? topicDoc(row) : null;
  },
  apply(ctx, user, master, next) {
    if (next._deleted) {
      if (master && !master._deleted) deleteTopic(ctx, user, next.id);
      return;
    }
    if (master) throw badRequest('A topic cannot be changed after it is created.', 'invalid-argument');
    createTopic(ctx, user, parse(createTopicSchema, { id: next.id, title: next.title, categories: [next.category] }));
  },
};

const responses: Applier<'responses'> = {
  load(ctx, _user, id) {
    const row = ctx.store.responses.get(id, null);
    return row ? responseDoc(ctx.store, row) : null;
  },
  apply(ctx, user, master, next) {
    if (next._deleted) {
      if (master && !master._deleted) deleteResponse(ctx, user, next.id);
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
      createResponse(ctx, user, input);
      return;
    }
    const input = parse(updateResponseSchema, { content: next.content, quoted_response_id: next.quoted_response_id, sources });
    updateResponse(ctx, user, next.id, input);
  },
  dependsOn: (doc) => [doc.parent_response_id, doc.quoted_response_id],
};

function parseVoteId(id: string): { type: 'topic' | 'response'; targetId: string } {
  const match = /^(topic|response)_(.+)$/.exec(id);
  if (!match) throw badRequest('A vote id is "topic_<id>" or "response_<id>".', 'invalid-argument');
  return { type: match[1] as 'topic' | 'response', targetId: match[2]! };
}

const votes: Applier<'votes'> = {
  load(ctx, user, id) {
    const { type, targetId } = parseVoteId(id);
    const row = ctx.store.votes.get(user.uid, type, targetId);
    return row ? voteDoc(row) : null;
  },
  apply(ctx, user, _master, next) {
    const { type, targetId } = parseVoteId(next.id);
    if (next.target_type !== type || next.target_id !== targetId) {
      throw badRequest('The vote id does not match its target.', 'invalid-argument');
    }
    setVote(ctx, user, type, targetId, next.upvoted === true);
  },
};

const notifications: Applier<'notifications'> = {
  load(ctx, user, id) {
    const row = ctx.store.notifications.get(id);
    // Someone else's notification does not exist for the caller.
    return row && row.recipient_uid === user.uid ? notificationDoc(row) : null;
  },
  apply(ctx, user, master, next) {
    if (!master) {
      // Same answer as the REST call: 404 when missing, 403 when not the caller's.
      markNotificationRead(ctx, user, next.id);
      return;
    }
    if (!next.is_read) throw badRequest('A notification cannot be marked unread.', 'invalid-argument');
    markNotificationRead(ctx, user, next.id);
  },
};

const profile: Applier<'profile'> = {
  load(ctx, user, id) {
    if (id !== user.uid) return null;
    const row = ctx.store.users.get(id);
    return row ? profileDoc(row) : null;
  },
  apply(ctx, user, _master, next) {
    if (next.id !== user.uid) throw forbidden(MSG.loginToUpdatePreferences);
    setPreferences(ctx, user.uid, parse(preferencesSchema, { receive_weekly_summary: next.receive_weekly_summary }));
  },
};

export const APPLIERS: { [C in SyncCollection]: Applier<C> } = { topics, responses, votes, notifications, profile };
