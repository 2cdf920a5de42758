// Compile-time only: each synced collection's local document type (derived from
// its RxDB schema) must be the wire document of shared/sync-protocol.ts plus the
// documented local-only fields, so a field added on one side only fails `tsc`.
// Nothing here runs; the `true` constants exist for the type checker.
import type {
  NotificationDoc,
  ProfileDoc,
  ResponseDoc,
  SourceDoc,
  StanceDoc,
  TopicDoc,
  VoteDoc,
} from '../../../../shared/sync-protocol.js';
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

/** Local-only flags (local-docs.ts): never sent, stripped by toWire. */
type ItemFlags = 'pending' | 'pending_delete';

export const topicMatchesWire: AssertEqual<Omit<TopicDocType, ItemFlags>, AsStored<TopicDoc, 'username'>> = true;

export const responseMatchesWire: AssertEqual<
  Omit<ResponseDocType, ItemFlags | 'sources'>,
  AsStored<Omit<ResponseDoc, 'sources'>, 'username' | 'parent_response_id' | 'quoted_response_id'>
> = true;
export const sourceMatchesWire: AssertEqual<ResponseDocType['sources'][number], AsStored<SourceDoc, 'name' | 'description'>> = true;

// `confirmed_upvoted`: the vote state the server's score already counts (views.ts voteDelta).
export const voteMatchesWire: AssertEqual<Omit<VoteDocType, 'pending' | 'confirmed_upvoted'>, AsStored<VoteDoc>> = true;

export const notificationMatchesWire: AssertEqual<Omit<NotificationDocType, 'pending'>, AsStored<NotificationDoc>> = true;

export const profileMatchesWire: AssertEqual<Omit<ProfileDocType, 'pending'>, AsStored<ProfileDoc, 'display_name'>> = true;

export const stanceMatchesWire: AssertEqual<Omit<StanceDocType, 'pending'>, AsStored<StanceDoc>> = true;
