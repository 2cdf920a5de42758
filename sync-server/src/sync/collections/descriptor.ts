// What one replicated collection means on the server, in one object:
// who may see it, what a pushed document must look like, how a page of changes
// is read, how a pushed change is carried out (through the same domain operation
// as the REST call), and which live-stream listener hears about a commit.
// pull.ts, push.ts, routes.ts and stream.ts read these; they never branch on a
// collection's name. docs/SYNC.md "Adding a collection" lists the steps.
import type { z } from 'zod';
import { unauthorized } from '../../../../shared/errors.js';
import { MSG } from '../../../../shared/messages.js';
import type { StreamEvent, SyncCheckpoint, SyncCollection, SyncDocs } from '../../../../shared/sync-protocol.js';
import type { AuthUser } from '../../auth/verifier.js';
import type { Change } from '../../domain/change-feed.js';
import type { DomainContext } from '../../domain/context.js';

/** Who is asking for a page of changes, and for which part of the collection. */
export interface PullScope {
  /** The caller; always set for a private collection (routes.ts requires the token). */
  user: AuthUser | null;
  /** `?topic_id=` of the pull request (responses are pulled per topic). */
  topicId?: string;
}

/** One live-stream listener: its user (null when anonymous) and the topics it follows. */
export interface Listener {
  user: AuthUser | null;
  topics: ReadonlySet<string>;
}

export interface CollectionDescriptor<C extends SyncCollection> {
  /** 'private': the caller's own documents only, pulled and pushed with a bearer token (PRIVATE_COLLECTIONS). */
  privacy: 'public' | 'private';
  /** The document as a pull answers it: the OpenAPI document's description (typed by the wire document). */
  documentSchema: z.ZodType<SyncDocs[C]>;
  /**
   * A pushed document at the edge: the fields a push may use must be there with
   * the right types (the domain's own schemas then check the values, as for the
   * REST call); the server's fields are never read from a push.
   */
  pushSchema: z.ZodType;
  /** The documents after `from` the scope may see, ordered by (seq, id), at most `limit`. */
  pull(ctx: DomainContext, scope: PullScope, from: SyncCheckpoint, limit: number): Promise<SyncDocs[C][]>;
  /** The server's current state of a document as the caller may see it, or null. */
  load(ctx: DomainContext, user: AuthUser, id: string): Promise<SyncDocs[C] | null>;
  /**
   * Carries out `next` (which differs from `master` on user fields); throws CruxError like the REST call.
   * Runs inside the row's own savepoint (push.ts), which reads the result back with `load`.
   */
  apply(ctx: DomainContext, user: AuthUser, master: SyncDocs[C] | null, next: SyncDocs[C]): Promise<void>;
  /** Ids of documents of the same push this one needs applied first (a reply after its parent). */
  dependsOn?(doc: SyncDocs[C]): (string | null)[];
  /** What a listener is told about a committed change of this collection, or null when it may not know. */
  streamEvent(change: Change & { collection: C }, listener: Listener): StreamEvent | null;
}

/** A change to one user's own documents: told to that user only. */
export const ownerOnly =
  <C extends SyncCollection>(collection: C) =>
  (change: { uid?: string }, listener: Listener): StreamEvent | null =>
    listener.user && change.uid === listener.user.uid ? { type: 'RESYNC', collection } : null;

/** The caller a private collection is pulled for (routes.ts has already required the token). */
export function caller(scope: PullScope): AuthUser {
  if (!scope.user) throw unauthorized(MSG.invalidToken);
  return scope.user;
}
