// Every local collection in one place (issue 7): the database that holds it, its
// schema and migrations, and for the replicated ones how they sync. db.ts opens
// the collections from here; the replication, the push handler, local-docs.ts,
// dependencies.ts and the sync controller read these entries instead of
// branching on a collection's name. A new synced collection without an entry
// does not compile (SyncRegistry is keyed by SyncCollection).
import type { MigrationStrategies, RxJsonSchema } from 'rxdb';
import type { FullSyncDocs, SyncCollection } from '../../../../shared/sync-protocol.js';
import { draftMigrations, draftSchema, type DraftDocType } from './draft.schema.js';
import { notificationMigrations, notificationSchema, type NotificationDocType } from './notification.schema.js';
import { profileMigrations, profileSchema, type ProfileDocType } from './profile.schema.js';
import { responseMigrations, responseSchema, type ResponseDocType } from './response.schema.js';
import { stanceMigrations, stanceSchema, type StanceDocType } from './stance.schema.js';
import { syncProblemMigrations, syncProblemSchema, type SyncProblemDocType } from './sync-problem.schema.js';
import { topicMigrations, topicSchema, type TopicDocType } from './topic.schema.js';
import { voteMigrations, voteSchema, type VoteDocType } from './vote.schema.js';

/** 'public': topics and responses, shared by whoever uses the device; 'user': one database per signed-in uid. */
export type Database = 'public' | 'user';

/** The local document type of each collection. */
export interface LocalDocs {
  topics: TopicDocType;
  responses: ResponseDocType;
  votes: VoteDocType;
  notifications: NotificationDocType;
  profile: ProfileDocType;
  stances: StanceDocType;
  drafts: DraftDocType;
  sync_problems: SyncProblemDocType;
}

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
export type SyncAction = 'create' | 'edit' | 'delete' | 'vote' | 'read' | 'preferences' | 'stance';

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

export interface SyncBehaviour<C extends SyncCollection> {
  /**
   * 'checkpoint': GET /{collection}/pull from one {id, seq} position;
   * 'followed-topics': POST /responses/pull, one position per followed topic.
   */
  pull: 'checkpoint' | 'followed-topics';
  /** The local-only fields of a server state stored here: confirmed, nothing pending. */
  localFields(doc: LocalRow): Omit<LocalDocs[C], keyof FullSyncDocs[C]>;
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
}

interface LocalCollection<D> {
  database: Database;
  schema: RxJsonSchema<D>;
  migrationStrategies: MigrationStrategies;
}

interface SyncedCollection<C extends SyncCollection> extends LocalCollection<LocalDocs[C]> {
  sync: SyncBehaviour<C>;
}

export type SyncRegistry = { [C in SyncCollection]: SyncedCollection<C> };
type Registry = SyncRegistry & { [K in Exclude<keyof LocalDocs, SyncCollection>]: LocalCollection<LocalDocs[K]> };

/** Topics and responses: made, edited and deleted by their author. */
const authoredItem: Pick<SyncBehaviour<SyncCollection>, 'settle' | 'action' | 'revert' | 'author'> = {
  settle: (next, assumed, unchanged) =>
    // Created and deleted here before the server ever saw it.
    !assumed && next.pending_delete ? { ...next, _deleted: true } : unchanged ? next : null,
  action: (next, assumed) => (next.pending_delete || next._deleted ? 'delete' : assumed ? 'edit' : 'create'),
  revert: (next) => ({ ...next, pending: false, _deleted: true }),
  author: (doc) => doc.creator_uid,
};

/** A change to the server's state (a read, a preference) needs sending unless it is back to that state. */
const settleUnlessChanged: SyncBehaviour<SyncCollection>['settle'] = (next, _assumed, unchanged) => (unchanged ? next : null);

export const COLLECTIONS = {
  topics: {
    database: 'public',
    schema: topicSchema,
    migrationStrategies: topicMigrations,
    sync: {
      ...authoredItem,
      pull: 'checkpoint',
      localFields: () => ({ pending: false, pending_delete: false }),
    },
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
    },
  },
  votes: {
    database: 'user',
    schema: voteSchema,
    migrationStrategies: voteMigrations,
    sync: {
      pull: 'checkpoint',
      localFields: (doc) => ({ pending: false, confirmed_upvoted: doc.upvoted === true }),
      // A vote toggled back to what the server has (on and off offline) sends nothing.
      settle: (next, assumed) => {
        const before = assumed?.upvoted === true;
        return before === (next.upvoted === true) ? { ...next, confirmed_upvoted: before } : null;
      },
      action: () => 'vote',
      // Taking a vote back is upvoted=false, never a tombstone (vote.schema.ts).
      revert: (next) => ({ ...next, upvoted: false, confirmed_upvoted: false, pending: false }),
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
    },
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
    },
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
    },
  },
  drafts: { database: 'user', schema: draftSchema, migrationStrategies: draftMigrations },
  sync_problems: { database: 'user', schema: syncProblemSchema, migrationStrategies: syncProblemMigrations },
} as const satisfies Registry;

/** The synced collections' entries, in dependency order (SYNC_COLLECTIONS: topics before responses before votes). */
export const SYNCED: SyncRegistry = COLLECTIONS;

/** Names of the collections a database holds. */
export type CollectionsIn<D extends Database> = {
  [K in keyof typeof COLLECTIONS]: (typeof COLLECTIONS)[K]['database'] extends D ? K : never;
}[keyof typeof COLLECTIONS];
