// A client taken out of a pool for a run of statements (a transaction, the migrations). pg-pool
// listens for errors on idle clients only: one taken out has no 'error' listener, so its
// connection ending between two statements (a server restart, a timeout, a pooler,
// pg_terminate_backend) would be an unheard 'error' event, an uncaught exception that ends the
// process. While the client is out its error is kept here; the next statement fails on its own
// (the client is no longer queryable), and release() throws the client away instead of reusing it.
import type { Pool, PoolClient } from 'pg';

export interface CheckedOut {
  client: PoolClient;
  /** Back to the pool, or thrown away if it broke (`broken`, or an error its connection reported). */
  release(broken?: Error): void;
}

export async function checkOut(pool: Pool): Promise<CheckedOut> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const keep = (error: Error) => (lost ??= error);
  client.on('error', keep);
  return {
    client,
    release(broken) {
      client.removeListener('error', keep);
      const error = broken ?? lost;
      // Thrown away: the pool no longer listens to it, and a late error of its closing connection is of no use.
      if (error) client.on('error', () => {});
      client.release(error);
    },
  };
}
