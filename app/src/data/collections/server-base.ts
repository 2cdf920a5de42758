// The migrations that added `server_base` (topics and responses first, then the user's own
// collections once every collection's changes went through the outbox). Before them, the state the
// server had when a change was made here was RxDB's replication-meta copy, which a pull-only
// replication no longer reads. A change the previous app had not sent yet (pending, on an item the
// server has: seq > 0) is given the best state the device knows. Never sent blindly over the
// server's state, never lost.
type Stored = Record<string, unknown>;

/**
 * Marks a base the device could not confirm was the server's (stripped before a push, local-docs.ts):
 * the change is always sent, even when it equals that base, so the server decides.
 */
export const UNCONFIRMED_BASE = 'unconfirmed_base';

const isUnsentOnServerItem = (old: Stored) => old.pending === true && Number(old.seq) > 0 && !old.server_base;

/** The stored document's wire fields (no local flags, no RxDB fields). */
function wireOf(old: Stored): Stored {
  const {
    pending: _pending,
    pending_delete: _pendingDelete,
    confirmed_upvoted: _confirmed,
    _meta,
    _rev,
    _attachments,
    _deleted,
    ...wire
  } = old;
  return wire;
}

/**
 * The stored document as its base, unconfirmed: the change is sent, and if the server holds another
 * state (it did not land) the push meets a conflict and the user's version waits in sync problems to
 * be kept or dropped.
 */
export function withServerBaseOfUnsent(old: Stored): Stored {
  if (!isUnsentOnServerItem(old)) return old;
  return { ...old, server_base: { ...wireOf(old), _deleted: false, [UNCONFIRMED_BASE]: true } };
}

/**
 * For a collection whose one user field is a boolean (a vote, "read", a block, a follow): the server
 * holds either the unsent value (the change landed: nothing is applied again) or the other one, which
 * is then the state the change was made on.
 */
export function withToggledServerBase(field: string): (old: Stored) => Stored {
  return (old) => {
    if (!isUnsentOnServerItem(old)) return old;
    return { ...old, server_base: { ...wireOf(old), [field]: old[field] !== true, _deleted: false } };
  };
}

/**
 * A vote from before the disagree vote: its `upvoted` as the value (agree, or none), on the document
 * and on the server state an unsent change was made on, so the push compares like with like.
 */
export function withVoteValue(old: Stored): Stored {
  const valueOf = (state: Stored) => ({ ...state, value: state.upvoted === true ? 1 : null });
  const base = old.server_base as Stored | undefined;
  return { ...valueOf(old), ...(base ? { server_base: valueOf(base) } : {}) };
}
