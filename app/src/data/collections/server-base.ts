// The migration that added `server_base` to topics and responses (issue 28 #3). Before it, the state
// the server had when a change was made here was RxDB's replication-meta copy, which the pull-only
// replication no longer reads. A change the previous app had not sent yet (pending, on an item the
// server has: seq > 0) is given the best state the device knows: the document as it is stored. If
// that is not what the server holds, the push meets a conflict, and the user's version waits in sync
// problems to be kept or dropped: never sent blindly over the server's, never lost.
type Stored = Record<string, unknown>;

export function withServerBaseOfUnsent(old: Stored): Stored {
  if (old.pending !== true || !(Number(old.seq) > 0) || old.server_base) return old;
  const { pending: _pending, pending_delete: _pendingDelete, _meta, _rev, _attachments, _deleted, ...wire } = old;
  return { ...old, server_base: { ...wire, _deleted: false } };
}
