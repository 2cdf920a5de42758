// The client side of a push: decides which local changes need the server at all
// (a vote toggled on and off offline sends nothing; an eviction is never a
// delete), sends the rest, writes the server's answer back as the local state,
// and keeps every change that did not land as made in `sync problems`.
import type { RxReplicationWriteToMasterRow } from 'rxdb';
import type { PushResponse, RejectedRow, SyncCollection } from '../../../shared/sync-protocol.js';
import { sameUserFields } from '../../../shared/rules/sync-fields.js';
import type { SyncHttp, TokenSource } from './http.js';
import { toLocal, toWire } from './local-docs.js';
import type { Orphans } from './orphans.js';
import type { ProblemRecorder } from './problems.js';

type Doc = Record<string, any>;

export interface PushDeps {
  collection: SyncCollection;
  http: SyncHttp;
  token: () => TokenSource | null;
  problems: ProblemRecorder;
  /** The signed-in uid (null when signed out). */
  uid?: () => string | null;
  /** Where another author's unsent public writes wait for them (see orphans.ts). */
  orphans?: Orphans;
  /** Resolves once the items these documents point at are on the server (order across collections). */
  waitForDependencies?: (docs: Doc[]) => Promise<void>;
}

type Decision = { kind: 'skip' } | { kind: 'resolve'; doc: Doc } | { kind: 'send' };

/** What the server would see as the user's action, or why nothing needs sending. */
export function decide(collection: SyncCollection, next: Doc, assumed: Doc | undefined): Decision {
  // Not a user action: a local eviction (tombstone) or a state the replication itself wrote.
  if (next.pending !== true) return { kind: 'skip' };
  const settled = (doc: Doc): Decision => ({ kind: 'resolve', doc: { ...doc, pending: false } });
  if (collection === 'topics' || collection === 'responses') {
    // Created and deleted here before the server ever saw it.
    if (!assumed && next.pending_delete) return settled({ ...next, _deleted: true });
    if (assumed && sameUserFields(collection, toWire(assumed), toWire(next))) return settled(next);
    return { kind: 'send' };
  }
  if (collection === 'votes') {
    const before = assumed?.upvoted === true;
    if (before === (next.upvoted === true)) return settled({ ...next, confirmed_upvoted: before });
    return { kind: 'send' };
  }
  if (assumed && sameUserFields(collection, toWire(assumed), toWire(next))) return settled(next);
  return { kind: 'send' };
}

function actionOf(collection: SyncCollection, next: Doc, assumed: Doc | undefined): string {
  if (collection === 'votes') return 'vote';
  if (collection === 'notifications') return 'read';
  if (collection === 'profile') return 'preferences';
  if (next.pending_delete || next._deleted) return 'delete';
  return assumed ? 'edit' : 'create';
}

/** The local state after the server refused a row: its state, or (never created there) gone. */
function reverted(collection: SyncCollection, next: Doc, rejected: RejectedRow): Doc {
  if (rejected.master) return toLocal(collection, rejected.master as unknown as Doc);
  if (collection === 'votes') return { ...next, upvoted: false, confirmed_upvoted: false, pending: false };
  if (collection === 'profile') return { ...next, pending: false };
  return { ...next, pending: false, _deleted: true };
}

export function createPushHandler(deps: PushDeps) {
  const { collection } = deps;
  return async (rows: RxReplicationWriteToMasterRow<any>[]): Promise<any[]> => {
    const resolved: Doc[] = [];
    const toSend: RxReplicationWriteToMasterRow<Doc>[] = [];
    for (const row of rows) {
      const decision = decide(collection, row.newDocumentState, row.assumedMasterState);
      if (decision.kind === 'resolve') resolved.push(decision.doc);
      else if (decision.kind === 'send') toSend.push(row);
    }
    // Public items written by someone who has since signed out: never sent with this user's token.
    const uid = deps.uid?.() ?? null;
    if (uid && deps.orphans && (collection === 'topics' || collection === 'responses')) {
      for (const row of toSend.filter((r) => r.newDocumentState.creator_uid !== uid)) {
        toSend.splice(toSend.indexOf(row), 1);
        const next = row.newDocumentState;
        await deps.orphans.keep({
          author_uid: next.creator_uid,
          kind: 'rejected',
          collection,
          itemId: next.id,
          action: actionOf(collection, next, row.assumedMasterState),
          error: 'Not sent: you signed out before this change reached the server.',
          status: 401,
          localState: toWire(next) as unknown as Doc,
          serverState: row.assumedMasterState ? (toWire(row.assumedMasterState as Doc) as unknown as Doc) : null,
        });
        resolved.push(row.assumedMasterState ? { ...row.assumedMasterState, pending: false } : { ...next, pending: false, _deleted: true });
      }
    }
    if (toSend.length === 0) return resolved;
    const token = deps.token();
    // Signed out with changes waiting: they stay queued until someone signs in again.
    if (!token) throw new Error('Waiting for sign-in to send local changes.');
    await deps.waitForDependencies?.(toSend.map((row) => row.newDocumentState));
    const body = toSend.map((row) => ({
      assumedMasterState: row.assumedMasterState ? toWire(row.assumedMasterState) : null,
      newDocumentState: toWire(row.newDocumentState),
    }));
    const answer = await deps.http.json<PushResponse>(`/${collection}/push`, { method: 'POST', body, token });
    const rowsById = new Map(toSend.map((row) => [row.newDocumentState.id as string, row]));
    const answered = new Set<string>();
    for (const master of answer.conflicts as unknown as Doc[]) {
      const row = rowsById.get(master.id);
      answered.add(master.id);
      if (row && !sameUserFields(collection, master, toWire(row.newDocumentState))) {
        // Someone changed it first: the server's state is kept, the user's version goes to sync problems.
        await deps.problems.record({
          kind: 'conflict',
          collection,
          itemId: master.id,
          action: actionOf(collection, row.newDocumentState, row.assumedMasterState),
          error: master._deleted ? 'This item was deleted before your change arrived.' : 'This item was changed elsewhere before your change arrived.',
          status: 409,
          localState: toWire(row.newDocumentState) as unknown as Doc,
          serverState: master,
        });
      }
      resolved.push(toLocal(collection, master));
    }
    for (const rejected of answer.rejected) {
      const row = rowsById.get(rejected.id);
      if (!row) continue;
      answered.add(rejected.id);
      await deps.problems.record({
        kind: 'rejected',
        collection,
        itemId: rejected.id,
        action: actionOf(collection, row.newDocumentState, row.assumedMasterState),
        error: rejected.error,
        status: rejected.status,
        localState: toWire(row.newDocumentState) as unknown as Doc,
        serverState: (rejected.master as unknown as Doc) ?? null,
      });
      resolved.push(reverted(collection, row.newDocumentState, rejected));
    }
    // Rows the server had nothing to say about landed as sent (e.g. a delete of an item already gone).
    for (const row of toSend) {
      const next = row.newDocumentState;
      if (answered.has(next.id)) continue;
      resolved.push(next.pending_delete ? { ...next, pending: false, _deleted: true } : { ...next, pending: false });
    }
    return resolved;
  };
}
