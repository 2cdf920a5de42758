// The client side of a push, for the outbox of every collection (outbox.ts): decides which pending
// changes need the server at all (a vote toggled on and off offline sends nothing), keeps another
// author's public writes from this user's token (orphans.ts), waits for what the changes depend on
// (dependencies.ts), sends the rest, and answers each change's local state after the server's answer,
// keeping every change that did not land as made in `sync problems`.
// A push the server refuses as a whole (429 rate limited, 5xx, offline) throws: nothing is set aside,
// the changes stay pending and the outbox sends them again (after a 429, http.ts holds the next push
// until the server's Retry-After has passed).
import type { RxReplicationWriteToMasterRow, WithDeleted } from 'rxdb';
import type { PushResponse, SyncCollection } from '../../../shared/sync-protocol.js';
import { sameUserFields } from '../../../shared/rules/sync-fields.js';
import type { SyncHttp, TokenSource } from './http.js';
import { SYNCED, type LocalRow } from './collections/index.js';
import { UNCONFIRMED_BASE } from './collections/server-base.js';
import { toLocal, toWire } from './local-docs.js';
import type { Orphans } from './orphans.js';
import type { ProblemRecorder } from './problems.js';

export interface PushDeps {
  collection: SyncCollection;
  http: SyncHttp;
  token: () => TokenSource | null;
  problems: ProblemRecorder;
  /** The signed-in uid (null when signed out). */
  uid?: () => string | null;
  /** Where another author's unsent public writes wait for them (see orphans.ts). */
  orphans?: Orphans;
  /** The order across collections (dependencies.ts), bound to this collection. */
  dependencies?: {
    /** Resolves once what these documents depend on is on the server. */
    wait(docs: LocalRow[]): Promise<void>;
    /** Whether a pending change of the user's own holds this document back now. */
    heldBack(doc: LocalRow): Promise<boolean>;
    /** The server answered these changes. */
    landed(docs: LocalRow[]): void;
  };
}

type Decision<R> = { kind: 'skip' } | { kind: 'resolve'; doc: R } | { kind: 'send' };
type Row = RxReplicationWriteToMasterRow<LocalRow>;

/** What the server would see as the user's action, or why nothing needs sending. */
export function decide<R extends LocalRow>(collection: SyncCollection, next: R, assumed: LocalRow | undefined): Decision<R> {
  // Not a user action (the outbox hands over pending changes only).
  if (next.pending !== true) return { kind: 'skip' };
  // A base the device could not confirm (server-base.ts) leaves the decision to the server.
  const unchanged =
    assumed !== undefined && assumed[UNCONFIRMED_BASE] !== true && sameUserFields(collection, toWire(assumed), toWire(next));
  const settled = SYNCED[collection].sync.settle(next, assumed, unchanged);
  return settled ? { kind: 'resolve', doc: { ...settled, pending: false } } : { kind: 'send' };
}

export function createPushHandler(deps: PushDeps) {
  const { collection } = deps;
  const entry = SYNCED[collection].sync;

  /** Sends rows in one request and answers their local states after the server's answer. */
  async function send(rows: Row[], token: TokenSource): Promise<WithDeleted<LocalRow>[]> {
    const resolved: WithDeleted<LocalRow>[] = [];
    const body = rows.map((row) => ({
      assumedMasterState: row.assumedMasterState ? toWire(row.assumedMasterState) : null,
      newDocumentState: toWire(row.newDocumentState),
    }));
    const answer = await deps.http.json<PushResponse>(`/${collection}/push`, { method: 'POST', body, token });
    // By wire id, as the server answers (a mark's local id carries its kind).
    const wireId = (doc: LocalRow) => String(toWire(doc).id);
    const rowsById = new Map(rows.map((row) => [wireId(row.newDocumentState), row]));
    const answered = new Set<string>();
    for (const master of answer.conflicts) {
      const row = rowsById.get(master.id);
      answered.add(master.id);
      if (row && !sameUserFields(collection, master, toWire(row.newDocumentState))) {
        // Someone changed it first: the server's state is kept, the user's version goes to sync problems.
        await deps.problems.record({
          kind: 'conflict',
          collection,
          itemId: master.id,
          action: entry.action(row.newDocumentState, row.assumedMasterState),
          error: master._deleted
            ? 'This item was deleted before your change arrived.'
            : 'This item was changed elsewhere before your change arrived.',
          status: 409,
          localState: toWire(row.newDocumentState),
          serverState: { ...master },
        });
      }
      resolved.push(toLocal(collection, { ...master }));
    }
    for (const rejected of answer.rejected) {
      const row = rowsById.get(rejected.id);
      if (!row) continue;
      answered.add(rejected.id);
      await deps.problems.record({
        kind: 'rejected',
        collection,
        itemId: rejected.id,
        action: entry.action(row.newDocumentState, row.assumedMasterState),
        error: rejected.error,
        status: rejected.status,
        localState: toWire(row.newDocumentState),
        serverState: rejected.master ? { ...rejected.master } : null,
      });
      // Its state on the server, or (never created there) what the collection falls back to.
      resolved.push(rejected.master ? toLocal(collection, { ...rejected.master }) : entry.revert(row.newDocumentState));
    }
    // Rows the server had nothing to say about landed as sent (e.g. a delete of an item already gone).
    for (const row of rows) {
      const next = row.newDocumentState;
      if (answered.has(wireId(next))) continue;
      resolved.push(next.pending_delete ? { ...next, pending: false, _deleted: true } : { ...next, pending: false });
    }
    return resolved;
  }

  return async (rows: Row[]): Promise<WithDeleted<LocalRow>[]> => {
    const resolved: WithDeleted<LocalRow>[] = [];
    const toSend: Row[] = [];
    for (const row of rows) {
      const decision = decide(collection, row.newDocumentState, row.assumedMasterState);
      if (decision.kind === 'resolve') resolved.push(decision.doc);
      else if (decision.kind === 'send') toSend.push(row);
    }
    // Public items written by someone who has since signed out: never sent with this user's token.
    const uid = deps.uid?.() ?? null;
    const author = entry.author;
    if (uid && deps.orphans && author) {
      for (const row of toSend.filter((r) => author(r.newDocumentState) !== uid)) {
        toSend.splice(toSend.indexOf(row), 1);
        const next = row.newDocumentState;
        await deps.orphans.keep({
          author_uid: String(author(next)),
          kind: 'rejected',
          collection,
          itemId: next.id,
          action: entry.action(next, row.assumedMasterState),
          error: 'Not sent: you signed out before this change reached the server.',
          status: 401,
          localState: toWire(next),
          serverState: row.assumedMasterState ? toWire(row.assumedMasterState) : null,
        });
        resolved.push(row.assumedMasterState ? { ...row.assumedMasterState, pending: false } : { ...next, pending: false, _deleted: true });
      }
    }
    if (toSend.length === 0) return resolved;
    const token = deps.token();
    // Signed out with changes waiting: they stay queued until someone signs in again.
    if (!token) throw new Error('Waiting for sign-in to send local changes.');
    // Two waves: what nothing of the user's own holds back first, so a change waiting for those
    // (a stance waiting for earlier votes) can go before the rest of this batch waits for it.
    const first: Row[] = [];
    const second: Row[] = [];
    for (const row of toSend) ((await deps.dependencies?.heldBack(row.newDocumentState)) ? second : first).push(row);
    for (const wave of [first, second]) {
      if (wave.length === 0) continue;
      await deps.dependencies?.wait(wave.map((row) => row.newDocumentState));
      resolved.push(...(await send(wave, token)));
      deps.dependencies?.landed(wave.map((row) => row.newDocumentState));
    }
    return resolved;
  };
}
