// Push: RxDB's rows {assumedMasterState, newDocumentState}, each checked against
// the server's state so that a retried row (RxDB retries every error) is recognised
// and never applied twice. The batch's rows are committed together (one
// commit, one lock, instead of one per row; Store.transactionEach), each a transaction of
// its own: a row refused with a CruxError is rolled back alone and answered in `rejected`,
// the others land. An unexpected error stops the batch: the rows before it are committed
// (as when each had its own transaction) and the request fails, so the client retries
// the rest and its retry of the landed rows is recognised.
import type { PushResponse, PushRow, RejectedRow, SyncCollection, SyncDocs } from '../../../shared/sync-protocol.js';
import type { AuthUser } from '../auth/verifier.js';
import type { DomainContext } from '../domain/context.js';
import { CruxError } from '../../../shared/errors.js';
import { sameUserFields } from '../../../shared/rules/sync-fields.js';
import { descriptorOf, type CollectionDescriptor } from './collections/index.js';

type Outcome<D> = { kind: 'master'; doc: D | null } | { kind: 'rejected'; rejected: RejectedRow<D> };

async function pushOne<C extends SyncCollection>(
  ctx: DomainContext,
  user: AuthUser,
  collection: C,
  descriptor: CollectionDescriptor<C>,
  row: PushRow<SyncDocs[C]>,
): Promise<Outcome<SyncDocs[C]>> {
  const next = row.newDocumentState;
  try {
    // A savepoint in the row's transaction, rolled back when the row is refused.
    return await ctx.store.transaction(async (): Promise<Outcome<SyncDocs[C]>> => {
      const master = await descriptor.load(ctx, user, next.id);
      // Already the server's state on user fields: a retry of a row that landed, or nothing to do.
      if (master && sameUserFields(collection, master, next)) return { kind: 'master', doc: master };
      if (!master && next._deleted) return { kind: 'master', doc: null };
      // Someone changed the item since the client's copy: the server's state wins, nothing is applied.
      const assumed = row.assumedMasterState;
      if (assumed && master && !sameUserFields(collection, master, assumed)) return { kind: 'master', doc: master };
      await descriptor.apply(ctx, user, master, next);
      return { kind: 'master', doc: await descriptor.load(ctx, user, next.id) };
    });
  } catch (error) {
    if (!(error instanceof CruxError)) throw error;
    let master: SyncDocs[C] | null = null;
    try {
      master = await descriptor.load(ctx, user, next.id);
    } catch {
      // an id the descriptor cannot even read (e.g. a malformed vote id): no master
    }
    const rejected: RejectedRow<SyncDocs[C]> = { id: next.id, status: error.status, error: error.message, master };
    if (error.code) rejected.code = error.code;
    return { kind: 'rejected', rejected };
  }
}

/** Parents before the replies and quotes that point at them, otherwise in the order sent (the order made). */
function orderByDependencies<C extends SyncCollection>(descriptor: CollectionDescriptor<C>, rows: PushRow<SyncDocs[C]>[]) {
  const dependsOn = descriptor.dependsOn;
  if (!dependsOn) return rows;
  const byId = new Map(rows.map((row) => [row.newDocumentState.id, row]));
  const done = new Set<string>();
  const ordered: PushRow<SyncDocs[C]>[] = [];
  const visit = (row: PushRow<SyncDocs[C]>, path: Set<string>) => {
    const id = row.newDocumentState.id;
    if (done.has(id) || path.has(id)) return;
    path.add(id);
    for (const dep of dependsOn(row.newDocumentState)) {
      const depRow = dep ? byId.get(dep) : undefined;
      if (depRow) visit(depRow, path);
    }
    done.add(id);
    ordered.push(row);
  };
  for (const row of rows) visit(row, new Set());
  return ordered;
}

export async function push<C extends SyncCollection>(
  ctx: DomainContext,
  user: AuthUser,
  collection: C,
  rows: PushRow<SyncDocs[C]>[],
): Promise<PushResponse<SyncDocs[C]>> {
  const descriptor = descriptorOf(collection);
  const result: PushResponse<SyncDocs[C]> = { conflicts: [], rejected: [] };
  const ordered = orderByDependencies(descriptor, rows);
  if (ordered.length === 0) return result;
  // Each row a transaction of its own, committed together (Store.transactionEach); an unexpected
  // error stops the batch there and fails the request.
  const outcomes = await ctx.store.transactionEach(ordered, (row) => pushOne(ctx, user, collection, descriptor, row));
  for (const outcome of outcomes) {
    if (outcome.kind === 'rejected') result.rejected.push(outcome.rejected);
    else if (outcome.doc) result.conflicts.push(outcome.doc);
  }
  return result;
}
