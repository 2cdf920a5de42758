// Change numbers (`seq`) on PostgreSQL (docs/POSTGRES.md), so that the sync
// protocol stays as it is: a puller asks for the rows after its checkpoint (seq, id)
// and may move the checkpoint to the last row it got.
//
// That is only safe if a row with a smaller seq can never become visible after a row
// with a larger one. SQLite gives it for free (one writer stamps inside its transaction:
// commit order = seq order). PostgreSQL does not: two transactions take 1 and 2 from a
// sequence, 2 commits, a puller reads it and moves past 1, then 1 commits and is never
// pulled. So every transaction that stamps a seq first takes one transaction-level
// advisory lock, and takes its numbers while holding it. PostgreSQL makes a commit
// visible before it releases the transaction's locks, so the next stamper gets its
// first number only once every smaller number is committed (or rolled back: a gap,
// which a puller never waits for). Stamping transactions thus commit in seq order,
// like SQLite's single writer; readers take no lock and are never held up.
import type { ClientBase, Pool, PoolClient } from 'pg';
import { checkOut } from './checkout.js';

/** The advisory lock every seq stamp holds until its transaction ends ('crux' in ASCII). Per database. */
export const SEQ_LOCK_KEY = 0x63727578;

/**
 * The counter and the one way to draw from it: `crux_next_seq()` takes the lock (at once again
 * if the transaction holds it already) and then the next number from the one-row crux_meta, as
 * SQLite takes it from `meta`. The counter is transactional, so a rolled-back transaction gives
 * its numbers back (the next writer reuses them, safely: they never became visible), and both
 * engines number the same writes alike. SQL that stamps rows outside a Store transaction (the
 * copy tool, an operator's fix) must call it too. Idempotent.
 */
export const SEQ_MIGRATION = `
CREATE TABLE IF NOT EXISTS crux_meta (
  key   text PRIMARY KEY,
  value bigint NOT NULL
);
INSERT INTO crux_meta (key, value) VALUES ('seq', 0) ON CONFLICT (key) DO NOTHING;

CREATE OR REPLACE FUNCTION crux_next_seq() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  stamped bigint;
BEGIN
  -- Held until COMMIT or ROLLBACK: see sync-server/src/store/pg/seq.ts.
  PERFORM pg_advisory_xact_lock(${SEQ_LOCK_KEY});
  UPDATE crux_meta SET value = value + 1 WHERE key = 'seq' RETURNING value INTO stamped;
  RETURN stamped;
END
$$;
`;

export async function migrateSeq(db: Pool | ClientBase): Promise<void> {
  await db.query(SEQ_MIGRATION);
}

/** The next change number of the transaction; the first call waits for earlier stampers to end. */
export type NextSeq = () => Promise<number>;

/**
 * Runs `work` in a transaction on a client of its own: COMMIT when it resolves, ROLLBACK
 * when it throws (the error is rethrown). The lock is taken at the first nextSeq(), not at
 * BEGIN: the reads and checks before it, and a transaction that ends up stamping nothing,
 * do not hold up the other writers. From then until COMMIT the writers go one at a time.
 */
export async function withWriteTransaction<T>(pool: Pool, work: (client: PoolClient, nextSeq: NextSeq) => Promise<T>): Promise<T> {
  const { client, release } = await checkOut(pool);
  let open = true;
  const nextSeq: NextSeq = async () => {
    if (!open) throw new Error('nextSeq() after the transaction ended');
    const { rows } = await client.query<{ seq: string }>('SELECT crux_next_seq() AS seq');
    // bigint arrives as a string; a seq stays far below 2^53.
    return Number(rows[0]!.seq);
  };
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client, nextSeq);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // After a failed COMMIT the transaction is rolled back already: this ROLLBACK only warns.
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    open = false;
    // A client whose ROLLBACK failed (connection lost) is thrown away, not reused.
    release(broken);
  }
}
