// Every local collection in one place: the database that holds it, its
// schema and migrations, and for the replicated ones how they sync. db.ts opens
// the collections from here; the replication, the push handler, local-docs.ts,
// dependencies.ts and the sync controller read these entries instead of
// branching on a collection's name, and so do fix-problem.ts (how a refused
// write is written again) and export.ts (what "Download my data" holds). A new
// synced collection without an entry does not compile (SyncRegistry is keyed by
// SyncCollection).
import type { ReportReason, ReportTargetType, Stance, TargetType, VoteValue } from '../../../../shared/constants.js';
import { normalizePushSettings, type PushSettings } from '../../../../shared/push.js';
import type { MigrationStrategies, RxCollection, RxDatabase, RxJsonSchema } from 'rxdb';
import { filter, firstValueFrom, of, timeout, type Observable } from 'rxjs';
import type {
  BlockDoc,
  FollowDoc,
  FullSyncDocs,
  NotificationDoc,
  ProfileDoc,
  ReportDoc,
  ResponseDoc,
  SourceDoc,
  StanceDoc,
  SyncCollection,
  TopicDoc,
  VoteDoc,
} from '../../../../shared/sync-protocol.js';
import type { Notification } from '../../../../shared/types.js';
// The data layer's types (api.ts imports nothing of the data layer): the registry names no module that imports it.
import type { CruxExport, EditResponseInput, ExportedItem, NewResponseInput, NewTopicInput } from '../api.js';
import {
  markMigrations,
  markSchema,
  type BlockMark,
  type FollowMark,
  type MarkDocType,
  type MarkKind,
  type ReportMark,
} from './mark.schema.js';
import { notificationMigrations, notificationSchema, type NotificationDocType } from './notification.schema.js';
import { profileMigrations, profileSchema, type ProfileDocType } from './profile.schema.js';
import { responseMigrations, responseSchema, type ResponseDocType } from './response.schema.js';
import { stanceMigrations, stanceSchema, type StanceDocType } from './stance.schema.js';
import { topicMigrations, topicSchema, type TopicDocType } from './topic.schema.js';
import { storedVoteValue, voteMigrations, voteSchema, type VoteDocType } from './vote.schema.js';

/** 'public': topics and responses, shared by whoever uses the device; 'user': one database per signed-in uid. */
export type Database = 'public' | 'user';

/**
 * Each collection's local document type and the database that holds it (its entry below must say
 * the same). Declared apart from the entries so the database types (db.ts) do not depend on them:
 * the entries' reapply and exportPart take those databases.
 */
interface Layout {
  topics: { doc: TopicDocType; database: 'public' };
  responses: { doc: ResponseDocType; database: 'public' };
  votes: { doc: VoteDocType; database: 'user' };
  notifications: { doc: NotificationDocType; database: 'user' };
  profile: { doc: ProfileDocType; database: 'user' };
  stances: { doc: StanceDocType; database: 'user' };
  // The user's blocks, follows and reports, told apart by `kind` (mark.schema.ts).
  marks: { doc: MarkDocType; database: 'user' };
}

/** The local document type of each collection. */
export type LocalDocs = { [K in keyof Layout]: Layout[K]['doc'] };

/** The kinds of `marks`, each a synced collection of its own on the server and the wire. */
type Marks = { blocks: BlockMark; follows: FollowMark; reports: ReportMark };
/** The synced collections kept in a local collection of their own (of the same name). */
type OwnCollection = Exclude<SyncCollection, MarkKind>;

/** The local document of each synced collection: for a kind of `marks`, a mark of that kind. */
export type SyncedDocs = { [C in SyncCollection]: C extends MarkKind ? Marks[C] : LocalDocs[C & OwnCollection] };
/** The local collection that holds a synced collection's documents. */
type StoredIn<C extends SyncCollection> = C extends MarkKind ? 'marks' : C & OwnCollection;

/**
 * A local document as the push side handles it: the local flags (`pending`,
 * `pending_delete`) and RxDB's `_deleted` included, every other field as stored.
 */
export interface LocalRow {
  id: string;
  pending?: boolean;
  pending_delete?: boolean;
  _deleted?: boolean;
  [field: string]: unknown;
}

/** What the user did, as a sync problem names it. */
export type SyncAction =
  'create' | 'edit' | 'delete' | 'vote' | 'read' | 'preferences' | 'stance' | 'block' | 'unblock' | 'report' | 'follow' | 'unfollow';

/**
 * What must reach the server before a document is pushed: an item it points at (public, on the
 * server once it has a seq), or the pending changes of the user's own documents a selector matches
 * for which `blocks` is true (they are confirmed once no longer pending).
 */
export type Dependency =
  | { collection: 'topics' | 'responses'; id: string | null | undefined }
  | { collection: 'votes' | 'stances'; selector: Record<string, unknown>; blocks: (doc: LocalRow) => boolean };

/** When the user last changed their stance on the topic (credits changed later do not count). */
function lastStanceChange(stance: LocalRow): string {
  const history = (stance.history as { at: string }[] | undefined) ?? [];
  return history[history.length - 1]?.at ?? String(stance.updated_at);
}

/** Names of the collections a database holds. */
export type CollectionsIn<D extends Database> = {
  [K in keyof Layout]: Layout[K]['database'] extends D ? K : never;
}[keyof Layout];

export type PublicCollections = { [K in CollectionsIn<'public'>]: RxCollection<LocalDocs[K]> };
export type UserCollections = { [K in CollectionsIn<'user'>]: RxCollection<LocalDocs[K]> };
export type PublicDb = RxDatabase<PublicCollections>;
export type UserDb = RxDatabase<UserCollections>;

/** The signed-in user whose database the actions write to. */
export interface Session {
  uid: string;
  db: UserDb;
}

/**
 * The actions a "Fix" writes a change again with. Declared here, not taken from actions.ts (which
 * implements them and is checked against this where fix-problem.ts passes it), so the registry
 * imports nothing that imports the registry.
 */
export interface ReapplyActions {
  createTopic(input: NewTopicInput, id?: string): Promise<unknown>;
  deleteTopic(topicId: string): Promise<unknown>;
  createResponse(input: NewResponseInput, id?: string): Promise<unknown>;
  editResponse(responseId: string, input: EditResponseInput): Promise<unknown>;
  deleteResponse(responseId: string): Promise<unknown>;
  toggleVote(targetType: TargetType, targetId: string): Promise<boolean>;
  castVote(targetType: TargetType, targetId: string, value: VoteValue | null): Promise<void>;
  report(targetType: ReportTargetType, targetId: string, reason: ReportReason, note?: string | null): Promise<unknown>;
  markRead(notificationId: string): Promise<unknown>;
  setWeeklySummary(receive: boolean): Promise<unknown>;
  setPushSettings(settings: PushSettings): Promise<unknown>;
  setStance(topicId: string, stance: Stance): Promise<void>;
  creditDeltas(topicId: string, responseIds: string[]): Promise<void>;
  blockUser(uid: string, displayName: string | null): Promise<void>;
  unblockUser(uid: string): Promise<void>;
  followTopic(topicId: string, title: string | null): Promise<unknown>;
  unfollowTopic(topicId: string): Promise<unknown>;
}

/** What a collection's `reapply` works with (fix-problem.ts). */
export interface ReapplyContext {
  publicDb: PublicDb;
  actions: ReapplyActions;
  /** The signed-in user the problem belongs to. */
  session: Session;
  /** Refuses the fix: this action cannot be written again (the user discards it instead). */
  cannotRetry: () => never;
}

/** What a collection's `exportPart` works with (export.ts). */
export interface ExportContext {
  publicDb: PublicDb;
  session: Session;
  /** A local public item as exported: its wire document plus whether it still waits to be sent. */
  item: (doc: { toJSON(): unknown }) => ExportedItem;
}

/** The parts of an export a collection fills. */
export type ExportPart = Partial<Omit<CruxExport, 'format' | 'version' | 'exported_at'>>;

export interface SyncBehaviour<C extends SyncCollection> {
  /**
   * 'checkpoint': GET /{collection}/pull from one {id, seq} position;
   * 'followed-topics': POST /responses/pull, one position per followed topic;
   * 'kept-topics': POST /topics/pull, the kept topics by id with the seq each holds (working-set.ts).
   */
  pull: 'checkpoint' | 'followed-topics' | 'kept-topics';
  /** The local-only fields of a server state stored here: confirmed, nothing pending. */
  localFields(doc: LocalRow): Omit<SyncedDocs[C], keyof FullSyncDocs[C] | 'kind'>;
  /**
   * A pending change that needs nothing from the server, as it settles locally
   * (the caller clears `pending`), or null when it must be sent. `unchanged`: the
   * server's last state already agrees on every field a user may change.
   */
  settle<R extends LocalRow>(next: R, assumed: LocalRow | undefined, unchanged: boolean): R | null;
  /** The user's action, as a sync problem names it. */
  action(next: LocalRow, assumed: LocalRow | undefined): SyncAction;
  /** The local state after the server refused a row it has no state of (never created there). */
  revert<R extends LocalRow>(next: R): R;
  /** Public items only: their author, whose unsent writes no other user's token may carry (orphans.ts). */
  author?: (doc: LocalRow) => unknown;
  /** What must reach the server first ("in the order made" across collections, dependencies.ts). */
  dependsOn?: (doc: LocalRow) => Dependency[];
  /**
   * "Fix" of a sync problem (fix-problem.ts): writes the user's version (`local`, the wire document
   * as pushed, with their corrections) again as a local change under the item's original `id`, by
   * the `action` the problem names; `ctx.cannotRetry()` for an action that cannot be written again.
   */
  reapply(ctx: ReapplyContext, action: string, id: string, local: Record<string, unknown>): Promise<void>;
}

interface LocalCollection<K extends keyof Layout> {
  database: Layout[K]['database'];
  schema: RxJsonSchema<LocalDocs[K]>;
  migrationStrategies: MigrationStrategies;
}

type SyncedCollection<C extends SyncCollection> = {
  database: Layout[StoredIn<C>]['database'];
  sync: SyncBehaviour<C>;
  /** What this collection puts in "Download my data" (export.ts), from this device's data only. */
  exportPart(ctx: ExportContext): Promise<ExportPart>;
} & (C extends MarkKind
  ? /** Kept in `marks`, its documents marked with this kind. */
    { stored: { in: 'marks'; kind: C } }
  : { stored?: undefined });

export type SyncRegistry = { [C in SyncCollection]: SyncedCollection<C> };
/** The local collections, each opened by db.ts; one holding a synced collection of its name carries its sync entry too. */
type Registry = { [C in OwnCollection]: LocalCollection<C> & SyncedCollection<C> } & { marks: LocalCollection<'marks'> };

/**
 * The local copy of a public item about to be written again under its id, once it is not another
 * author's. Another account's unsent create that the push is setting aside (push-handler.ts: it
 * becomes this user's sync problem a moment before the push removes it from the device) is waited
 * out, so "Post it as me" never mistakes it for the item already being here. At most 10 s.
 */
function ownedOrGone<T extends { creator_uid: string }>(doc$: Observable<T | null>, uid: string): Promise<T | null> {
  return firstValueFrom(
    doc$.pipe(
      filter((doc) => !doc || doc.creator_uid === uid),
      timeout({ first: 10_000, with: () => of(null) }),
    ),
  );
}

/** Topics and responses: made, edited and deleted by their author. */
const authoredItem: Pick<SyncBehaviour<SyncCollection>, 'settle' | 'action' | 'revert' | 'author'> = {
  settle: (next, assumed, unchanged) =>
    // Created and deleted here before the server ever saw it.
    !assumed && next.pending_delete ? { ...next, _deleted: true } : unchanged ? next : null,
  action: (next, assumed) => (next.pending_delete || next._deleted ? 'delete' : assumed ? 'edit' : 'create'),
  revert: (next) => ({ ...next, pending: false, _deleted: true }),
  author: (doc) => doc.creator_uid,
};

type ResponseFields = Pick<ResponseDoc, 'topic_id' | 'parent_response_id' | 'type' | 'content' | 'quoted_response_id' | 'sources'>;

/** A change to the server's state (a read, a preference) needs sending unless it is back to that state. */
const settleUnlessChanged: SyncBehaviour<SyncCollection>['settle'] = (next, _assumed, unchanged) => (unchanged ? next : null);

export const COLLECTIONS = {
  topics: {
    database: 'public',
    schema: topicSchema,
    migrationStrategies: topicMigrations,
    sync: {
      ...authoredItem,
      // The topics the device keeps, by id (working-set.ts), never the whole site.
      pull: 'kept-topics',
      // A pulled state keeps the stored seen_at (pull-guard.ts).
      localFields: () => ({ pending: false, pending_delete: false, seen_at: 0 }),
      async reapply({ publicDb, actions, session, cannotRetry }, action, id, local) {
        if (action === 'create') {
          const existing = await ownedOrGone(publicDb.topics.findOne(id).$, session.uid);
          // Already here (it landed, or is still queued): nothing to create again.
          if (existing && !existing.pending_delete) return;
          const topic = local as Pick<TopicDoc, 'title' | 'category'>;
          await actions.createTopic({ title: topic.title, category: topic.category }, id);
        } else if (action === 'delete') await actions.deleteTopic(id);
        else cannotRetry();
      },
    },
    exportPart: async ({ publicDb, session, item }) => ({
      topics: (await publicDb.topics.find({ selector: { creator_uid: session.uid } }).exec()).map(item),
    }),
  },
  responses: {
    database: 'public',
    schema: responseSchema,
    migrationStrategies: responseMigrations,
    sync: {
      ...authoredItem,
      // Only the responses of the topics kept on the device (follows.ts).
      pull: 'followed-topics',
      localFields: () => ({ pending: false, pending_delete: false }),
      dependsOn: (doc) => [
        { collection: 'topics', id: doc.topic_id as string },
        { collection: 'responses', id: doc.parent_response_id as string | null },
        { collection: 'responses', id: doc.quoted_response_id as string | null },
      ],
      async reapply({ publicDb, actions, session, cannotRetry }, action, id, local) {
        if (action === 'create') {
          const existing = await ownedOrGone(publicDb.responses.findOne(id).$, session.uid);
          if (existing && !existing.pending_delete) return;
          const response = local as ResponseFields;
          await actions.createResponse(
            {
              topicId: response.topic_id,
              parentResponseId: response.parent_response_id,
              type: response.type,
              content: response.content,
              quotedResponseId: response.quoted_response_id,
              sources: response.sources,
            },
            id,
          );
        } else if (action === 'edit') {
          const response = local as Pick<ResponseDoc, 'content' | 'quoted_response_id' | 'sources'>;
          await actions.editResponse(id, {
            content: response.content,
            quotedResponseId: response.quoted_response_id,
            sources: response.sources,
          });
        } else if (action === 'delete') await actions.deleteResponse(id);
        else cannotRetry();
      },
    },
    exportPart: async ({ publicDb, session, item }) => ({
      responses: (await publicDb.responses.find({ selector: { creator_uid: session.uid } }).exec()).map(item),
    }),
  },
  votes: {
    database: 'user',
    schema: voteSchema,
    migrationStrategies: voteMigrations,
    sync: {
      pull: 'checkpoint',
      localFields: (doc) => ({ pending: false, confirmed_upvoted: doc.upvoted === true }),
      // A vote changed back to what the server has (on and off offline) sends nothing.
      settle: (next, assumed) => {
        if (storedVoteValue(assumed) !== storedVoteValue(next)) return null;
        return { ...next, confirmed_upvoted: assumed?.upvoted === true };
      },
      action: () => 'vote',
      // Taking a vote back is value=null, upvoted=false, never a tombstone (vote.schema.ts).
      revert: (next) => ({ ...next, upvoted: false, value: null, confirmed_upvoted: false, pending: false }),
      dependsOn: (doc) => [
        { collection: doc.target_type === 'topic' ? 'topics' : 'responses', id: doc.target_id as string },
        // An upvote of a response counts by the voter's stance when it reaches the server: a stance
        // changed (offline) before this vote goes first. One changed after it waits for the vote (below).
        ...(doc.target_type === 'response'
          ? [
              {
                collection: 'stances',
                selector: { id: doc.topic_id, pending: true },
                blocks: (stance: LocalRow) => lastStanceChange(stance) <= String(doc.updated_at),
              } as const,
            ]
          : []),
      ],
      async reapply({ session, actions, cannotRetry }, action, id, local) {
        if (action !== 'vote') return cannotRetry();
        const current = await session.db.votes.findOne(id).exec();
        const vote = local as Pick<VoteDoc, 'upvoted' | 'value' | 'target_type' | 'target_id'>;
        const wanted = storedVoteValue(vote);
        if (storedVoteValue(current?.toJSON()) !== wanted) await actions.castVote(vote.target_type, vote.target_id, wanted);
      },
    },
    exportPart: async ({ session }) => ({
      votes: (await session.db.votes.find().exec()).map((vote) => ({
        target_type: vote.target_type,
        target_id: vote.target_id,
        topic_id: vote.topic_id,
        upvoted: vote.upvoted,
        value: storedVoteValue(vote),
        updated_at: vote.updated_at,
      })),
    }),
  },
  notifications: {
    database: 'user',
    schema: notificationSchema,
    migrationStrategies: notificationMigrations,
    sync: {
      pull: 'checkpoint',
      localFields: () => ({ pending: false }),
      settle: settleUnlessChanged,
      action: () => 'read',
      revert: (next) => ({ ...next, pending: false, _deleted: true }),
      async reapply({ actions, cannotRetry }, action, id) {
        if (action !== 'read') return cannotRetry();
        await actions.markRead(id);
      },
    },
    exportPart: async ({ session }) => ({
      notifications: (await session.db.notifications.find().exec()).map((n): Notification => ({
        id: n.id,
        type: n.type,
        actor_display_name: n.actor_display_name ?? null,
        target_summary: n.target_summary,
        target_id: n.target_id,
        created_at: n.created_at,
        is_read: n.is_read,
      })),
    }),
  },
  profile: {
    database: 'user',
    schema: profileSchema,
    migrationStrategies: profileMigrations,
    sync: {
      pull: 'checkpoint',
      localFields: () => ({ pending: false }),
      settle: settleUnlessChanged,
      action: () => 'preferences',
      // The one profile document stays: only its pending change is given up.
      revert: (next) => ({ ...next, pending: false }),
      async reapply({ actions, cannotRetry }, action, _id, local) {
        if (action !== 'preferences') return cannotRetry();
        await actions.setWeeklySummary(local.receive_weekly_summary === true);
        if (local.push_settings) await actions.setPushSettings(normalizePushSettings(local.push_settings));
      },
    },
    exportPart: async ({ session }) => {
      const profile = await session.db.profile.findOne(session.uid).exec();
      return {
        user: { uid: session.uid, display_name: profile?.display_name ?? null },
        preferences: profile ? { receive_weekly_summary: profile.receive_weekly_summary, push_settings: profile.push_settings } : null,
      };
    },
  },
  stances: {
    database: 'user',
    schema: stanceSchema,
    migrationStrategies: stanceMigrations,
    sync: {
      pull: 'checkpoint',
      localFields: () => ({ pending: false }),
      // Changed and changed back offline (same stance, same credits as the server): nothing to send,
      // and the server's history stays, so the device never counts changes the server never saw.
      settle: (next, assumed, unchanged) => (unchanged ? { ...next, history: assumed?.history ?? next.history } : null),
      action: () => 'stance',
      // A first stance the server refused was never recorded there: it goes from the device (the
      // user's version waits in sync problems).
      revert: (next) => ({ ...next, pending: false, _deleted: true }),
      // The topic, and the responses credited with Δ, must be on the server first; so must the
      // upvotes of this topic's responses made before this change of stance (they count by the
      // stance the voter held then, see votes above).
      dependsOn: (doc) => [
        { collection: 'topics', id: doc.topic_id as string },
        ...((doc.credits as string[] | undefined) ?? []).map((id): Dependency => ({ collection: 'responses', id })),
        {
          collection: 'votes',
          selector: { topic_id: doc.topic_id, target_type: 'response', pending: true },
          blocks: (vote) => String(vote.updated_at) < lastStanceChange(doc),
        },
      ],
      async reapply({ actions, cannotRetry }, action, _id, local) {
        if (action !== 'stance') return cannotRetry();
        // The stance as the user recorded it (the refused first one left no document), then its
        // credits, checked again by the same rule as a new credit.
        const stance = local as Pick<StanceDoc, 'topic_id' | 'stance' | 'credits'>;
        await actions.setStance(stance.topic_id, stance.stance);
        if (Array.isArray(stance.credits) && stance.credits.length > 0) await actions.creditDeltas(stance.topic_id, stance.credits);
      },
    },
    exportPart: async ({ session }) => ({
      stances: (await session.db.stances.find().exec()).map((doc) => ({
        topic_id: doc.topic_id,
        stance: doc.stance,
        first_stance: doc.first_stance,
        history: doc.history.map((change) => ({ stance: change.stance, at: change.at })),
        credits: [...doc.credits],
        updated_at: doc.updated_at,
        pending: doc.pending,
      })),
    }),
  },
  marks: {
    database: 'user',
    schema: markSchema,
    migrationStrategies: markMigrations,
  },
} as const satisfies Registry;

/** The user's marks of one kind (those `selector` matches), as that kind's documents. */
async function marksOf<K extends MarkKind>(session: Session, kind: K, selector: Record<string, unknown> = {}): Promise<Marks[K][]> {
  return (await session.db.marks.find({ selector: { ...selector, kind } }).exec()).map((doc) => doc.toJSON() as unknown as Marks[K]);
}

/** The user's blocks, follows and reports: three sync collections, kept as kinds of the one local `marks`. */
const MARKS = {
  blocks: {
    database: 'user',
    stored: { in: 'marks', kind: 'blocks' },
    sync: {
      pull: 'checkpoint',
      localFields: () => ({ pending: false }),
      // Blocked and unblocked again offline (or the reverse): back to the server's state, nothing to send.
      settle: (next, assumed) => ((assumed?.blocked === true) === (next.blocked === true) ? next : null),
      action: (next) => (next.blocked === true ? 'block' : 'unblock'),
      // A block the server refused was never made there: unblocked here (never a tombstone, block.schema.ts).
      revert: (next) => ({ ...next, blocked: false, pending: false }),
      async reapply({ actions, cannotRetry }, action, id, local) {
        const block = local as Pick<BlockDoc, 'display_name'>;
        if (action === 'block') await actions.blockUser(id, block.display_name ?? null);
        else if (action === 'unblock') await actions.unblockUser(id);
        else cannotRetry();
      },
    },
    exportPart: async ({ session }) => ({
      blocks: (await marksOf(session, 'blocks', { blocked: true })).map((doc) => ({
        uid: doc.blocked_uid,
        display_name: doc.display_name ?? null,
        updated_at: doc.updated_at,
        pending: doc.pending,
      })),
    }),
  },
  follows: {
    database: 'user',
    stored: { in: 'marks', kind: 'follows' },
    sync: {
      pull: 'checkpoint',
      localFields: () => ({ pending: false }),
      // Followed and unfollowed again offline (or the reverse): back to the server's state, nothing to send.
      settle: (next, assumed) => ((assumed?.following === true) === (next.following === true) ? next : null),
      action: (next) => (next.following === true ? 'follow' : 'unfollow'),
      // A follow the server refused (the topic is gone) was never made there: not followed here.
      revert: (next) => ({ ...next, following: false, pending: false }),
      dependsOn: (doc) => [{ collection: 'topics', id: doc.topic_id as string }],
      async reapply({ actions, cannotRetry }, action, id, local) {
        if (action === 'follow') await actions.followTopic(id, (local as Pick<FollowDoc, 'title'>).title ?? null);
        else if (action === 'unfollow') await actions.unfollowTopic(id);
        else cannotRetry();
      },
    },
    exportPart: async ({ session }) => ({
      follows: (await marksOf(session, 'follows', { following: true })).map((doc) => ({
        topic_id: doc.topic_id,
        title: doc.title ?? null,
        following: true,
        updated_at: doc.updated_at,
        pending: doc.pending,
      })),
    }),
  },
  reports: {
    database: 'user',
    stored: { in: 'marks', kind: 'reports' },
    sync: {
      pull: 'checkpoint',
      localFields: () => ({ pending: false }),
      // Reported again with the same reason and note as the server holds: nothing to send.
      settle: settleUnlessChanged,
      action: () => 'report',
      // A first report the server refused was never recorded there: it goes from the device (the
      // user's version waits in sync problems). Never a tombstone on the wire.
      revert: (next) => ({ ...next, pending: false, _deleted: true }),
      // A reported topic or response made on this device must reach the server first.
      dependsOn: (doc) =>
        doc.target_type === 'topic'
          ? [{ collection: 'topics', id: doc.target_id as string }]
          : doc.target_type === 'response'
            ? [{ collection: 'responses', id: doc.target_id as string }]
            : [],
      async reapply({ actions, cannotRetry }, action, _id, local) {
        if (action !== 'report') return cannotRetry();
        const report = local as Pick<ReportDoc, 'target_type' | 'target_id' | 'reason' | 'note'>;
        await actions.report(report.target_type, report.target_id, report.reason, report.note ?? null);
      },
    },
    exportPart: async ({ session }) => ({
      reports: (await marksOf(session, 'reports')).map((doc) => ({
        target_type: doc.target_type,
        target_id: doc.target_id,
        reason: doc.reason,
        note: doc.note ?? null,
        status: doc.status,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
        pending: doc.pending,
      })),
    }),
  },
} as const satisfies { [C in MarkKind]: SyncedCollection<C> };

const { marks: _marks, ...OWN } = COLLECTIONS;
/** Every synced collection's entry (SYNC_COLLECTIONS gives their dependency order: topics before responses before votes). */
export const SYNCED: SyncRegistry = { ...OWN, ...MARKS };

/** The local collection that holds a synced collection's documents. */
export const storedIn = <C extends SyncCollection>(name: C): StoredIn<C> => (SYNCED[name].stored?.in ?? name) as StoredIn<C>;

/** The kind marking a synced collection's documents in a shared local collection (none: a collection of its own). */
export const kindOf = (name: SyncCollection): MarkKind | undefined => SYNCED[name].stored?.kind;

/** The selector of a synced collection's documents within its local collection. */
export const kindSelector = (name: SyncCollection): Record<string, unknown> => {
  const kind = kindOf(name);
  return kind ? { kind } : {};
};

// Compile-time only: each synced collection's local document type (derived from its RxDB schema)
// must be the wire document of shared/sync-protocol.ts plus the documented local-only fields, so a
// field added on one side only fails `tsc`. Nothing reads MATCHES_WIRE; it exists for the type checker.

/**
 * `true` only when A and B have the same keys and each is assignable to the
 * other (so a field missing, extra, optional on one side only or of another
 * type on either side makes it `false`).
 */
export type AssertEqual<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? [A] extends [B]
      ? [B] extends [A]
        ? true
        : false
      : false
    : false
  : false;

/**
 * The wire document as the local schema stores it:
 * - without `_deleted`, which RxDB keeps itself (every RxDB document has it);
 * - with the nullable fields `Nullable` optional: the local schemas declare
 *   `type: ['string', 'null']` fields outside `required` (changing that would be
 *   a schema migration), so RxDB types them `T | null | undefined`. The server
 *   always sends them (null when empty), and every reader falls back with `?? null`.
 */
type AsStored<Wire, Nullable extends keyof Wire = never> = Omit<Wire, '_deleted' | Nullable> & { [K in Nullable]?: Wire[K] };

/** `true` only when both checks are. */
type Both<A extends boolean, B extends boolean> = [A, B] extends [true, true] ? true : false;

/** Local-only flags (local-docs.ts): never sent, stripped by toWire. `server_base`: see outbox.ts. */
type ItemFlags = 'pending' | 'pending_delete' | 'server_base';
/** The local-only flags of the user's own documents. */
type OwnFlags = 'pending' | 'server_base';

/**
 * One entry per synced collection (keyed by SyncCollection, so a collection added to
 * SYNC_COLLECTIONS without its check fails `tsc` here): `true satisfies AssertEqual<…>` fails
 * when that collection's local and wire documents differ.
 */
export const MATCHES_WIRE: Record<SyncCollection, true> = {
  topics: true satisfies AssertEqual<Omit<TopicDocType, ItemFlags | 'seen_at'>, AsStored<TopicDoc, 'username' | 'opinion_groups'>>,
  // The response itself, and each of its sources.
  responses: true satisfies Both<
    AssertEqual<
      Omit<ResponseDocType, ItemFlags | 'sources'>,
      AsStored<Omit<ResponseDoc, 'sources'>, 'username' | 'parent_response_id' | 'quoted_response_id'>
    >,
    AssertEqual<ResponseDocType['sources'][number], AsStored<SourceDoc, 'name' | 'description'>>
  >,
  // `confirmed_upvoted`: the vote state the server's score already counts (views.ts voteDelta).
  votes: true satisfies AssertEqual<Omit<VoteDocType, OwnFlags | 'confirmed_upvoted'>, AsStored<VoteDoc>>,
  notifications: true satisfies AssertEqual<Omit<NotificationDocType, OwnFlags>, AsStored<NotificationDoc>>,
  profile: true satisfies AssertEqual<Omit<ProfileDocType, OwnFlags>, AsStored<ProfileDoc, 'display_name'>>,
  stances: true satisfies AssertEqual<Omit<StanceDocType, OwnFlags>, AsStored<StanceDoc>>,
  // Kinds of `marks` (its local `kind` aside), and `marks` holds no field no kind has.
  blocks: true satisfies Both<
    AssertEqual<Omit<BlockMark, OwnFlags | 'kind'>, AsStored<BlockDoc, 'display_name'>>,
    AssertEqual<keyof MarkDocType, keyof BlockMark | keyof FollowMark | keyof ReportMark>
  >,
  reports: true satisfies AssertEqual<Omit<ReportMark, OwnFlags | 'kind'>, AsStored<ReportDoc, 'note'>>,
  follows: true satisfies AssertEqual<Omit<FollowMark, OwnFlags | 'kind'>, AsStored<FollowDoc, 'title'>>,
};
