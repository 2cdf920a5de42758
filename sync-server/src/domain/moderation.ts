// What moderators do: the queue of reported targets, the actions on a target (one
// transaction each, logged), the log, an item's original text, and an admin's role changes.
// Moderators cannot act on admins; a moderator's own content is handled like anyone's.
import type { RoleAdmin } from '../auth/roles.js';
import type { AuthUser } from '../auth/verifier.js';
import {
  isModerator,
  SUSPENDED_FOR_GOOD,
  type ModerationAction,
  type ReportStatus,
  type ReportTargetType,
} from '../../../shared/constants.js';
import { badRequest, forbidden, notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { ModerationActionInput } from '../../../shared/schemas/moderation.js';
import type {
  ModeratedOriginal,
  ModeratedUser,
  ModerationLogEntry,
  ModerationLogPage,
  ModerationQueuePage,
  QueueTarget,
  RoleChange,
} from '../../../shared/types.js';
import type { LogTarget, ModerationLogRow, NotificationRow } from '../store/rows.js';
import { prefix } from '../../../shared/rules/truncate.js';
import type { Change } from './change-feed.js';
import { notify } from './notify.js';
import { nowIso, publish, type DomainContext } from './context.js';
import { hideItem, originalSources, restoreItem } from './moderation-items.js';
import { assertNotSuspended, isSuspended } from './moderation-rules.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Which target types each action fits. */
const FITS: Record<ModerationAction, readonly ReportTargetType[]> = {
  remove: ['topic', 'response'],
  restore: ['topic', 'response'],
  dismiss: ['topic', 'response', 'user'],
  lock: ['topic'],
  unlock: ['topic'],
  suspend: ['user'],
  unsuspend: ['user'],
};

/** The actions after which the target's open reports are handled. */
const HANDLES: ReadonlySet<ModerationAction> = new Set(['remove', 'restore', 'dismiss', 'lock', 'suspend']);

export function assertModerator(actor: AuthUser): void {
  if (!isModerator(actor.role)) throw forbidden(MSG.moderatorsOnly);
}

/** Whether the actor moderates now: a moderator or admin, and (a moderator) not suspended. */
async function moderatesNow(ctx: DomainContext, actor: AuthUser): Promise<boolean> {
  if (actor.role === 'admin') return true;
  if (!isModerator(actor.role)) return false;
  return !isSuspended(await ctx.store.users.get(actor.uid), nowIso(ctx));
}

/** The moderators' reads (queue, log, originals): a suspended moderator is refused them as a member is. */
async function assertModeratesNow(ctx: DomainContext, actor: AuthUser): Promise<void> {
  if (!(await moderatesNow(ctx, actor))) throw forbidden(MSG.moderatorsOnly);
}

/** The target's author (a user: the user), or 404. */
async function authorOf(ctx: DomainContext, type: ReportTargetType, id: string): Promise<string> {
  const { store } = ctx;
  if (type === 'topic') {
    const topic = await store.topics.get(id, null);
    if (!topic || topic.deleted) throw notFound(MSG.topicNotFound);
    return topic.creator_uid;
  }
  if (type === 'response') {
    const response = await store.responses.get(id, null);
    if (!response || response.deleted) throw notFound(MSG.responseNotFound);
    return response.creator_uid;
  }
  if (!(await store.users.get(id))) throw notFound(MSG.userNotFound);
  return id;
}

function toLogEntry(row: ModerationLogRow, moderatorName: string | null, target: LogTarget): ModerationLogEntry {
  return { ...row, moderator_name: moderatorName, ...target };
}

/** What an action is about, by name, as the log page reads it (sql.ts MODERATION_LOG_PAGE). */
async function logTarget(ctx: DomainContext, type: ReportTargetType, id: string): Promise<LogTarget> {
  const { store } = ctx;
  if (type === 'user') return { target_name: (await store.users.get(id))?.display_name ?? null, target_topic_id: null };
  const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
  const original = row?.moderation != null ? await store.moderation.original(type, id) : undefined;
  const text = original?.text ?? (row ? ('title' in row ? row.title : row.content) : null);
  return { target_name: text === null ? null : prefix(text, 200), target_topic_id: row && 'topic_id' in row ? row.topic_id : null };
}

/** The author's notice of a removal or restore (it names no moderator: rows.ts toNotification). */
async function notifyAuthor(
  ctx: DomainContext,
  moderator: AuthUser,
  type: NotificationRow['type'],
  target: { type: 'topic' | 'response'; id: string },
  author: string,
  summary: string,
): Promise<Change[]> {
  const { store } = ctx;
  if (author === moderator.uid) return [];
  const topicId = target.type === 'topic' ? target.id : (await store.responses.get(target.id, null))!.topic_id;
  return [
    await notify(ctx, {
      recipient_uid: author,
      type,
      actor_uid: moderator.uid,
      target_summary: summary,
      target_id: topicId,
      response_id: target.type === 'response' ? target.id : '',
      created_at: nowIso(ctx),
    }),
  ];
}

/** POST /api/moderation/actions: one action on one target, in one transaction, logged. */
export async function moderate(ctx: DomainContext, moderator: AuthUser, input: ModerationActionInput): Promise<ModerationLogEntry> {
  assertModerator(moderator);
  const { store } = ctx;
  const { action, target_type: type, target_id: id, reason } = input;
  const { entry, changes } = await store.transaction(async () => {
    // A suspended moderator's actions are writes like any other: refused until the suspension ends.
    // Admins answer to nobody here (only an admin can suspend one, and `npm run users:role` unmakes one).
    if (moderator.role !== 'admin') await assertNotSuspended(ctx, moderator.uid);
    if (!FITS[action].includes(type)) throw badRequest(`A ${type} cannot be given the action ${action}.`);
    const author = await authorOf(ctx, type, id);
    if (moderator.role !== 'admin' && (await store.users.get(author))?.role === 'admin') throw forbidden(MSG.cannotActOnAdmin);
    const changes: Change[] = [];
    const now = nowIso(ctx);
    let days: number | null = null;
    if (type !== 'user') {
      const item = { type, id };
      if (action === 'remove') {
        changes.push(...(await hideItem(ctx, type, id, 'removed', reason)));
        changes.push(...(await notifyAuthor(ctx, moderator, 'moderation_removed', item, author, reason)));
      } else if (action === 'restore') {
        const restored = await restoreItem(ctx, type, id);
        changes.push(...restored);
        if (restored.length > 0) changes.push(...(await notifyAuthor(ctx, moderator, 'moderation_restored', item, author, reason)));
      } else if (action === 'dismiss') {
        // Dismissing the reports un-hides an item hidden pending review; a removal stays.
        const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
        if (row?.moderation === 'hidden') changes.push(...(await restoreItem(ctx, type, id)));
      } else if (action === 'lock' || action === 'unlock') {
        await store.moderation.setTopicLocked(id, action === 'lock', await store.nextSeq());
        changes.push({ collection: 'topics' });
      }
    } else if (action === 'suspend' || action === 'unsuspend') {
      days = action === 'suspend' ? (input.days ?? null) : null;
      const until = action === 'unsuspend' ? null : days ? new Date(Date.parse(now) + days * DAY_MS).toISOString() : SUSPENDED_FOR_GOOD;
      await store.moderation.setSuspension(id, until, until ? reason : null, await store.nextSeq());
      changes.push({ collection: 'profile', uid: id });
    }
    if (HANDLES.has(action)) {
      for (const uid of await store.reports.markHandled(type, id, store.nextSeq)) changes.push({ collection: 'reports', uid });
    }
    const entry: ModerationLogRow = {
      id: ctx.newId(),
      moderator_uid: moderator.uid,
      action,
      target_type: type,
      target_id: id,
      reason,
      days,
      created_at: now,
    };
    await store.moderation.log(entry);
    return { entry, changes };
  });
  publish(ctx, changes);
  return toLogEntry(entry, moderator.name, await logTarget(ctx, entry.target_type, entry.target_id));
}

/** What a moderator judges: the author's own text (from moderated_originals when moderated), in context. */
async function queueTarget(ctx: DomainContext, type: ReportTargetType, id: string, authorUid: string): Promise<QueueTarget> {
  const { store } = ctx;
  const author = await store.users.get(authorUid);
  const base = {
    author_uid: authorUid,
    author_name: author?.display_name ?? null,
    author_role: author?.role ?? 'member',
    suspended_until: author?.suspended_until ?? null,
  };
  if (type === 'user') {
    return {
      ...base,
      text: author?.display_name ?? '',
      sources: [],
      topic_id: null,
      topic_title: null,
      link: `/users/${encodeURIComponent(id)}`,
      created_at: author?.created_at ?? null,
      deleted: false,
      moderation: null,
      moderation_reason: null,
      locked: false,
    };
  }
  const original = await store.moderation.original(type, id);
  if (type === 'topic') {
    const topic = await store.topics.get(id, null);
    const text = original?.text ?? topic?.title ?? '';
    return {
      ...base,
      text,
      sources: [],
      topic_id: id,
      topic_title: text,
      link: `/topics/${id}`,
      created_at: topic?.created_at ?? null,
      deleted: !topic || topic.deleted === 1,
      moderation: topic?.moderation ?? null,
      moderation_reason: topic?.moderation_reason ?? null,
      locked: topic?.locked === 1,
    };
  }
  const response = await store.responses.get(id, null);
  const topic = response ? await store.topics.get(response.topic_id, null) : undefined;
  const topicOriginal = topic?.moderation ? await store.moderation.original('topic', topic.id) : undefined;
  return {
    ...base,
    text: original?.text ?? response?.content ?? '',
    sources: original ? originalSources(original) : await store.sources.forResponse(id),
    topic_id: response?.topic_id ?? null,
    topic_title: topicOriginal?.text ?? topic?.title ?? null,
    link: response ? `/topics/${response.topic_id}#response-${id}` : '',
    created_at: response?.created_at ?? null,
    deleted: !response || response.deleted === 1,
    moderation: response?.moderation ?? null,
    moderation_reason: response?.moderation_reason ?? null,
    locked: topic?.locked === 1,
  };
}

/** GET /api/moderation/reports: reported targets grouped, hidden first, then most reporters, then oldest. */
export async function moderationQueue(
  ctx: DomainContext,
  moderator: AuthUser,
  query: { status: ReportStatus; limit: number; offset: number },
): Promise<ModerationQueuePage> {
  await assertModeratesNow(ctx, moderator);
  const { store } = ctx;
  const targets = await store.reports.queue(query.status, query.limit, query.offset);
  const items = [];
  for (const target of targets) {
    const reports = await store.reports.forTarget(target.target_type, target.target_id, query.status);
    items.push({
      target_type: target.target_type,
      target_id: target.target_id,
      status: query.status,
      target: await queueTarget(ctx, target.target_type, target.target_id, target.target_author_uid),
      reports: reports.map((report) => ({
        reporter_uid: report.reporter_uid,
        reporter_name: report.reporter_name,
        reason: report.reason,
        note: report.note,
        status: report.status,
        created_at: report.created_at,
        updated_at: report.updated_at,
      })),
      reporters: target.reporters,
      first_reported_at: target.first_reported_at,
      last_reported_at: target.last_reported_at,
    });
  }
  return { items, total: await store.reports.queueTotal(query.status) };
}

/** GET /api/moderation/log: newest first. */
export async function moderationLog(
  ctx: DomainContext,
  moderator: AuthUser,
  query: { limit: number; offset: number },
): Promise<ModerationLogPage> {
  await assertModeratesNow(ctx, moderator);
  const rows = await ctx.store.moderation.logPage(query.limit, query.offset);
  return {
    items: rows.map(({ moderator_name, target_name, target_topic_id, ...row }) =>
      toLogEntry(row, moderator_name, { target_name, target_topic_id }),
    ),
    total: await ctx.store.moderation.logTotal(),
  };
}

/** GET /api/moderation/original/{type}/{id}: the item's own text, for its author and moderators only. */
export async function moderatedOriginal(
  ctx: DomainContext,
  actor: AuthUser,
  type: 'topic' | 'response',
  id: string,
): Promise<ModeratedOriginal> {
  const { store } = ctx;
  const row = type === 'topic' ? await store.topics.get(id, null) : await store.responses.get(id, null);
  if (!row || row.deleted) throw notFound(type === 'topic' ? MSG.topicNotFound : MSG.responseNotFound);
  if (row.creator_uid !== actor.uid) await assertModeratesNow(ctx, actor);
  const original = row.moderation !== null ? await store.moderation.original(type, id) : undefined;
  const current = 'title' in row ? row.title : row.content;
  return {
    target_type: type,
    target_id: id,
    text: original?.text ?? current,
    sources: original ? originalSources(original) : type === 'response' ? await store.sources.forResponse(id) : [],
    quoted_response_id: original ? original.quoted_response_id : 'quoted_response_id' in row ? row.quoted_response_id : null,
    moderation: row.moderation,
    moderation_reason: row.moderation_reason,
  };
}

/**
 * GET /api/moderation/users/{uid}: what a moderator needs to act on a user from their page (Suspend or
 * Unsuspend); a suspension that has ended reads as none. Moderators only: nobody else reads a suspension.
 */
export async function moderatedUser(ctx: DomainContext, actor: AuthUser, uid: string): Promise<ModeratedUser> {
  await assertModeratesNow(ctx, actor);
  const user = await ctx.store.users.get(uid);
  if (!user) throw notFound(MSG.userNotFound);
  const running = isSuspended(user, nowIso(ctx));
  return {
    uid,
    display_name: user.display_name,
    role: user.role,
    suspended_until: running ? user.suspended_until : null,
    suspension_reason: running ? (user.suspension_reason ?? null) : null,
  };
}

/** PUT /api/users/{uid}/role: an admin grants or revokes moderator (admins are made with `npm run users:role`). */
export async function setUserRole(
  ctx: DomainContext,
  roles: RoleAdmin,
  admin: AuthUser,
  uid: string,
  role: 'member' | 'moderator',
): Promise<RoleChange> {
  if (admin.role !== 'admin') throw forbidden(MSG.adminsOnly);
  const { store } = ctx;
  const user = await store.users.get(uid);
  if (!user) throw notFound(MSG.userNotFound);
  if (user.role === 'admin') throw forbidden("An admin's role is changed with npm run users:role.");
  // The claim first (a network call, outside the transaction): tokens and the verifier read it.
  await roles.setRole(uid, role);
  await store.transaction(async () => {
    await store.moderation.setRole(uid, role, await store.nextSeq());
    await store.moderation.log({
      id: ctx.newId(),
      moderator_uid: admin.uid,
      action: 'role',
      target_type: 'user',
      target_id: uid,
      reason: role,
      days: null,
      created_at: nowIso(ctx),
    });
  });
  publish(ctx, [{ collection: 'profile', uid }]);
  return { uid, role };
}
