// Write actions: each one is a local write (visible at once) marked `pending`;
// the collection's outbox sends it when it can (outbox.ts). The same zod schemas as the server
// check the input first, so most mistakes never reach the outbox.
import type { z } from 'zod';
import type { ReportReason, ReportTargetType } from '../../../shared/constants.js';
import { newId } from '../../../shared/ids.js';
import { MSG } from '../../../shared/messages.js';
import { assertOwner, assertParentInTopic } from '../../../shared/rules/ownership.js';
import { sameUserFields } from '../../../shared/rules/sync-fields.js';
import { reportDocId } from '../../../shared/sync-protocol.js';
import { normalizePushSettings, type PushSettings } from '../../../shared/push.js';
import type { Draft, EditResponseInput, NewResponseInput, NewTopicInput, UnsentDraft } from './api.js';
import type { PublicDb } from './db.js';
import { badRequest, notFound, unauthorized } from '../../../shared/errors.js';
import { arrivalRules, whenStored, type Arrivals } from './arrival.js';
import { draftsIn } from './drafts.js';
import { markId } from './collections/mark.schema.js';
import { markPending } from './local-docs.js';
import { createStanceActions } from './stance-actions.js';
import { createVoteActions } from './vote-actions.js';
import { createBlockActions } from './block-actions.js';
import { createFollowActions } from './follow-actions.js';

import type { Session } from './collections/index.js';
export type { Session };

type RequestSchemas = typeof import('./request-schemas.js');

/** `value` checked against the named request schema (request-schemas.ts, loaded on the first write). */
async function check<K extends keyof RequestSchemas>(name: K, value: unknown): Promise<z.output<RequestSchemas[K]>> {
  const schema: z.ZodType = (await import('./request-schemas.js'))[name];
  const result = schema.safeParse(value);
  if (result.success) return result.data as z.output<RequestSchemas[K]>;
  throw badRequest(result.error.issues[0]?.message ?? 'The input is not valid.');
}

const now = () => new Date().toISOString();

/** `arrivals`: how long an action waits for a row still being pulled (arrival.ts); without it, not at all. */
export function createActions(publicDb: PublicDb, session: () => Session | null, arrivals?: Arrivals) {
  const wait = arrivalRules(arrivals);
  const storedTopic = (id: string) => whenStored(publicDb.topics, id, wait.topics(id), wait.waitMs);
  const storedResponse = (id: string) => whenStored(publicDb.responses, id, wait.responses, wait.waitMs);
  const signedIn = (message: string): Session => {
    const current = session();
    if (!current) throw unauthorized(message);
    return current;
  };
  const displayName = async (s: Session) => (await s.db.profile.findOne(s.uid).exec())?.display_name ?? null;

  async function ownResponse(id: string, uid: string) {
    const doc = await publicDb.responses.findOne(id).exec();
    if (!doc || doc.pending_delete) throw notFound(MSG.responseNotFound);
    assertOwner(doc, uid, MSG.notYourResponse);
    return doc;
  }

  /**
   * Changes the user's own profile fields here first (pending until the server has them). Only on the
   * device's copy: before the profile is pulled there is nothing to change (the screens wait for it),
   * and a copy made up of defaults would send them over the server's other settings.
   */
  async function patchProfile(loginMessage: string, change: { receive_weekly_summary?: boolean; push_settings?: PushSettings }) {
    const s = signedIn(loginMessage);
    const doc = await s.db.profile.findOne(s.uid).exec();
    if (!doc) throw new Error(MSG.preferencesUpdateFailed);
    await markPending(doc, change);
  }

  return {
    /** `id`: the write's original id when a refused or set-aside create is sent again (fix-problem.ts). */
    async createTopic(input: NewTopicInput, id: string = newId()) {
      const s = signedIn(MSG.loginToCreateTopic);
      const valid = await check('createTopicSchema', { title: input.title, categories: input.category ? [input.category] : [] });
      const doc = await publicDb.topics.insert({
        id,
        title: valid.title,
        category: valid.categories[0]!,
        creator_uid: s.uid,
        username: await displayName(s),
        created_at: now(),
        score: 0,
        responses_count: 0,
        stance_agree: 0,
        stance_disagree: 0,
        stance_unsure: 0,
        minds_changed: 0,
        locked: false,
        moderation: null,
        moderation_reason: null,
        seq: 0,
        pending: true,
        pending_delete: false,
        seen_at: Date.now(),
      });
      return doc.id;
    },

    async deleteTopic(topicId: string) {
      const s = signedIn(MSG.loginToDeleteTopic);
      const doc = await publicDb.topics.findOne(topicId).exec();
      if (!doc || doc.pending_delete) throw notFound(MSG.topicNotFound);
      assertOwner(doc, s.uid, MSG.notYourTopic);
      await markPending(doc, { pending_delete: true });
    },

    /** `id`: the write's original id when a refused or set-aside create is sent again (fix-problem.ts). */
    async createResponse(input: NewResponseInput, id: string = newId()) {
      const s = signedIn(MSG.loginToPostResponse);
      const valid = await check('createResponseSchema', {
        content: input.content,
        type: input.type,
        topic_id: input.topicId,
        parent_response_id: input.parentResponseId ?? null,
        quoted_response_id: input.quotedResponseId ?? null,
        sources: input.sources ?? [],
      });
      const topic = await storedTopic(input.topicId);
      if (!topic) throw notFound(MSG.topicNotOnDevice);
      if (topic.pending_delete) throw notFound(MSG.topicNotFound);
      if (valid.parent_response_id) {
        const parent = await storedResponse(valid.parent_response_id);
        if (!parent || parent.pending_delete) throw notFound(MSG.responseNotFound);
        assertParentInTopic(parent, topic.id);
      }
      const created = now();
      const doc = await publicDb.responses.insert({
        id,
        topic_id: topic.id,
        parent_response_id: valid.parent_response_id ?? null,
        quoted_response_id: valid.quoted_response_id ?? null,
        type: valid.type,
        content: valid.content,
        sources: (valid.sources ?? []).map((source) => ({
          url: source.url,
          name: source.name ?? null,
          description: source.description ?? null,
        })),
        creator_uid: s.uid,
        username: await displayName(s),
        created_at: created,
        updated_at: created,
        edited_at: null,
        versions: [],
        score: 0,
        comment_count: 0,
        delta_count: 0,
        upvotes_agree: 0,
        upvotes_disagree: 0,
        downvotes_agree: 0,
        downvotes_disagree: 0,
        moderation: null,
        moderation_reason: null,
        seq: 0,
        pending: true,
        pending_delete: false,
      });
      return doc.id;
    },

    async editResponse(responseId: string, input: EditResponseInput) {
      const s = signedIn(MSG.loginToEditResponse);
      const valid = await check('updateResponseSchema', {
        content: input.content,
        quoted_response_id: input.quotedResponseId ?? null,
        ...(input.sources ? { sources: input.sources } : {}),
      });
      const doc = await ownResponse(responseId, s.uid);
      const sources = valid.sources?.map((x) => ({ url: x.url, name: x.name ?? null, description: x.description ?? null }));
      const quotedId = valid.quoted_response_id ?? null;
      const changed =
        valid.content !== doc.content ||
        quotedId !== (doc.quoted_response_id ?? null) ||
        (sources !== undefined &&
          JSON.stringify(sources) !==
            JSON.stringify(
              doc.sources.map(({ url, name, description }) => ({ url, name: name ?? null, description: description ?? null })),
            ));
      const fields = { content: valid.content, quoted_response_id: quotedId, ...(sources ? { sources } : {}) };
      // What the editor showed: the stored state may be newer by now (a pull wrote another device's
      // change while the editor was open or this save waited), and it is not what the person changed.
      const shown = input.editedFrom && {
        content: input.editedFrom.content,
        quoted_response_id: input.editedFrom.quotedResponseId,
        sources: input.editedFrom.sources.map(({ url, name, description }) => ({
          url,
          name: name ?? null,
          description: description ?? null,
        })),
      };
      // Saved as shown: the person changed nothing, so nothing is written over the stored state.
      if (shown && sameUserFields('responses', shown, { ...shown, ...fields })) return;
      const at = now();
      await markPending(
        doc,
        {
          ...fields,
          updated_at: at,
          // The "edited" mark shows at once on this device; the server's own time replaces it on the next pull.
          ...(changed ? { edited_at: at } : {}),
        },
        shown,
      );
    },

    async deleteResponse(responseId: string) {
      const s = signedIn(MSG.loginToDeleteResponse);
      const doc = await ownResponse(responseId, s.uid);
      await markPending(doc, { pending_delete: true });
    },

    ...createVoteActions(signedIn, storedTopic, storedResponse),
    ...createStanceActions(publicDb, signedIn, storedTopic),
    ...createBlockActions(signedIn),
    ...createFollowActions(signedIn),

    /**
     * Reports a topic, a response or a user: one report per target, reporting again
     * updates it (and reopens it once handled). Private, sent like any write.
     */
    async report(targetType: ReportTargetType, targetId: string, reason: ReportReason, note: string | null = null) {
      const s = signedIn(MSG.loginToReport);
      const valid = await check('createReportSchema', { target_type: targetType, target_id: targetId, reason, note });
      if (valid.target_type === 'user') {
        if (valid.target_id === s.uid) throw badRequest(MSG.reportOwnItem);
      } else {
        const target = valid.target_type === 'topic' ? await storedTopic(valid.target_id) : await storedResponse(valid.target_id);
        if (target && target.creator_uid === s.uid) throw badRequest(MSG.reportOwnItem);
        if (target?.pending_delete) throw notFound(MSG.reportTargetNotFound);
      }
      const id = reportDocId(valid.target_type, valid.target_id);
      const at = now();
      const existing = await s.db.marks.findOne(markId('reports', id)).exec();
      if (existing) {
        await markPending(existing, { reason: valid.reason, note: valid.note, status: 'open', updated_at: at });
        return;
      }
      await s.db.marks.insert({
        id: markId('reports', id),
        kind: 'reports',
        target_type: valid.target_type,
        target_id: valid.target_id,
        reason: valid.reason,
        note: valid.note,
        status: 'open',
        created_at: at,
        updated_at: at,
        seq: 0,
        pending: true,
      });
    },

    async markRead(notificationId: string) {
      const s = signedIn(MSG.loginToSeeNotifications);
      const doc = await s.db.notifications.findOne(notificationId).exec();
      if (!doc) throw notFound(MSG.notificationNotFound);
      if (!doc.is_read) await markPending(doc, { is_read: true });
    },

    async markAllRead() {
      const s = signedIn(MSG.loginToSeeNotifications);
      const unread = await s.db.notifications.find({ selector: { is_read: false } }).exec();
      for (const doc of unread) await markPending(doc, { is_read: true });
    },

    async setWeeklySummary(receive: boolean) {
      await patchProfile(MSG.loginToUpdatePreferences, { receive_weekly_summary: receive });
    },

    /** Push settings: a local write, synced with the profile like the weekly-summary preference. */
    async setPushSettings(settings: PushSettings) {
      await patchProfile(MSG.loginToUpdatePreferences, { push_settings: normalizePushSettings(settings) });
    },

    async saveDraft(key: string, text: string, extra: Record<string, unknown> = {}) {
      const s = signedIn(MSG.loginToPostResponse);
      await draftsIn(publicDb).save(s.uid, { key, text, extra, updated_at: now() });
    },
    async loadDraft(key: string): Promise<Draft | null> {
      const s = session();
      return s ? draftsIn(publicDb).load(s.uid, key) : null;
    },
    async deleteDraft(key: string) {
      const s = session();
      if (s) await draftsIn(publicDb).remove(s.uid, key);
    },
    async unsentDrafts(key: string): Promise<UnsentDraft[]> {
      return draftsIn(publicDb).unsentFor(session()?.uid ?? null, key);
    },
    async adoptDraft(owner: string, key: string, text: string) {
      const s = signedIn(MSG.loginToPostResponse);
      await draftsIn(publicDb).adopt(owner, s.uid, key, text, now());
    },
    async discardDraft(owner: string, key: string) {
      await draftsIn(publicDb).remove(owner, key);
    },
  };
}

export type Actions = ReturnType<typeof createActions>;
