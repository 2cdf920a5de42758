// Compile-time only: each synced collection's local document type (derived from
// its RxDB schema) must be the wire document of shared/sync-protocol.ts plus the
// documented local-only fields, so a field added on one side only fails `tsc`.
// Nothing here is read; MATCHES_WIRE exists for the type checker.
import type {
  BlockDoc,
  FollowDoc,
  NotificationDoc,
  ProfileDoc,
  ReportDoc,
  ResponseDoc,
  SourceDoc,
  StanceDoc,
  TopicDoc,
  SyncCollection,
  VoteDoc,
} from '../../../../shared/sync-protocol.js';
import type { BlockMark, FollowMark, MarkDocType, ReportMark } from './mark.schema.js';
import type { NotificationDocType } from './notification.schema.js';
import type { ProfileDocType } from './profile.schema.js';
import type { ResponseDocType } from './response.schema.js';
import type { StanceDocType } from './stance.schema.js';
import type { TopicDocType } from './topic.schema.js';
import type { VoteDocType } from './vote.schema.js';

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
  topics: true satisfies AssertEqual<Omit<TopicDocType, ItemFlags>, AsStored<TopicDoc, 'username' | 'opinion_groups'>>,
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
