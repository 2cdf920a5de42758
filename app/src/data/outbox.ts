// The one way the user's changes reach the server: one outbox per synced collection, the
// collection's replication only pulls (a push-and-pull replication keeps a replication-meta copy of
// every document, which for the thousands of responses a device only reads doubled what each one
// costs to store). The changes wait where the screens read them, in the documents themselves, marked
// `pending` (a pull never writes over one: pull-guard.ts); a change to an item the server has carries
// `server_base`, the server's state it was made on (local-docs.ts withPendingChange), sent as the
// push's assumed state. The outbox sends them in the order made, in batches, through the push
// handler (push-handler.ts: decides, sets aside refused changes, waits for what they depend on), and
// writes the server's answer back over a document only if it has not changed since it was sent. A
// change made meanwhile stays pending, now made on the state the server answered, and goes next.
// It runs while the sync controller runs it (the leader tab, online), and retries a failed push
// after `retryTimeMs`.
import { BehaviorSubject, type Observable, type Subscription } from 'rxjs';
import type { RxCollection, RxReplicationWriteToMasterRow, WithDeleted } from 'rxdb';
import { deepEqual } from 'rxdb/plugins/utils';
import type { SyncCollection } from '../../../shared/sync-protocol.js';
import { kindSelector, type LocalRow } from './collections/index.js';
import { toLocal, toWire } from './local-docs.js';

type Row = RxReplicationWriteToMasterRow<LocalRow>;

export interface OutboxDeps {
  name: SyncCollection;
  collection: RxCollection;
  /** The push handler (push-handler.ts): the local state of every row after the server's answer. */
  push(rows: Row[]): Promise<WithDeleted<LocalRow>[]>;
  /** Rows per push request. */
  batchSize: number;
  retryTimeMs: number;
}

export interface Outbox {
  /** Sends what is pending now and each change from now on (again after a pause). */
  start(): void;
  /** Sends nothing new until started again; a push under way still writes its answer back. */
  pause(): void;
  cancel(): void;
  /** Looks for pending changes now (a user signed in, say). */
  kick(): void;
  /** True while a push is being prepared, sent or written back. */
  active$: Observable<boolean>;
}

/** A stored document as RxDB holds it, with its write time. */
type Stored = LocalRow & { _meta: { lwt: number } };

const lastWrite = (a: Stored, b: Stored) => a._meta.lwt - b._meta.lwt;

/** A document's own fields, without RxDB's revision and meta data. */
function fieldsOf(doc: Record<string, unknown>): LocalRow {
  const { _rev, _meta, _attachments, ...fields } = doc;
  return fields as LocalRow;
}

/** A pending document as the push handler takes it: the change, on the server's state it was made on. */
function rowOf(name: SyncCollection, doc: Stored): Row {
  const { server_base: base, ...next } = fieldsOf(doc);
  return {
    newDocumentState: { ...next, _deleted: false },
    assumedMasterState: base ? toLocal(name, base as Record<string, unknown>) : undefined,
  };
}

/**
 * The document after the server's answer `settled`: that answer, if the document is still the state
 * that was sent; else the newer change, now made on the state the server holds.
 */
function afterAnswer(data: LocalRow, sent: LocalRow | undefined, settled: WithDeleted<LocalRow>): LocalRow {
  if (sent && deepEqual(fieldsOf(data), sent)) return { ...settled };
  if (data.pending !== true) return data;
  return { ...data, server_base: { ...toWire(settled), _deleted: settled._deleted === true } };
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const { name, collection } = deps;
  const active$ = new BehaviorSubject(false);
  let state: 'stopped' | 'running' | 'paused' | 'cancelled' = 'stopped';
  let cycle: Promise<void> | null = null;
  let again = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let watch: Subscription | undefined;
  // Its own documents only, in a local collection several share (`marks`).
  const pendingQuery = () => collection.find({ selector: { ...kindSelector(name), pending: true } });
  // A function: the state changes while a push is awaited.
  const gone = () => state === 'cancelled' || collection.closed;

  /** Writes the server's answers back; whether any document moved on (else the push is tried later). */
  async function writeBack(sent: Stored[], answers: WithDeleted<LocalRow>[]): Promise<boolean> {
    const sentStates = new Map(sent.map((doc) => [doc.id, fieldsOf(doc)]));
    let moved = false;
    for (const settled of answers) {
      const doc = await collection.findOne(settled.id).exec();
      if (!doc) continue;
      await doc.incrementalModify((data: LocalRow) => afterAnswer(data, sentStates.get(settled.id), settled));
      moved = true;
    }
    return moved;
  }

  /** Pushes the pending changes, oldest first, until none is left or the outbox stops. */
  async function sendAll(): Promise<void> {
    while (state === 'running' && !collection.closed) {
      const pending = (await pendingQuery().exec()).map((doc) => doc.toMutableJSON(true) as Stored);
      if (pending.length === 0) return;
      const batch = pending.sort(lastWrite).slice(0, deps.batchSize);
      const answers = await deps.push(batch.map((doc) => rowOf(name, doc)));
      if (gone()) return;
      if (!(await writeBack(batch, answers))) throw new Error(`The server's answer settled none of ${batch.length} pending ${name}.`);
    }
  }

  function kick(): void {
    if (state !== 'running') return;
    if (cycle) {
      again = true;
      return;
    }
    clearTimeout(retry);
    active$.next(true);
    cycle = sendAll()
      .catch(() => {
        // Offline, refused as a whole (429, 5xx) or waiting for a sign-in: the changes stay pending.
        if (state === 'running') retry = setTimeout(kick, deps.retryTimeMs);
      })
      .finally(() => {
        cycle = null;
        const rerun = again && state === 'running';
        again = false;
        if (rerun) kick();
        else active$.next(false);
      });
  }

  return {
    start() {
      if (state === 'cancelled') return;
      state = 'running';
      // Every local change to the pending set (a new change, one written back) looks again.
      watch ??= pendingQuery().$.subscribe({ next: kick, error: () => {} });
      kick();
    },
    pause() {
      if (state === 'running') state = 'paused';
      clearTimeout(retry);
    },
    cancel() {
      state = 'cancelled';
      clearTimeout(retry);
      watch?.unsubscribe();
      if (!cycle) active$.next(false);
    },
    kick,
    active$: active$.asObservable(),
  };
}
