// A streaming replica of a local PostgreSQL server (scripts/local-postgres.ts), for the read-replica
// tests: a second cluster made by `pg_basebackup -R` from the running primary (a base
// backup plus standby.signal and primary_conninfo), started on a free loopback port, hot standby
// (it answers reads while it replays). The primary needs nothing beyond initdb's defaults:
// wal_level = replica, max_wal_senders = 10, and pg_hba's `host replication all 127.0.0.1/32 trust`.
// Throwaway: in a temp folder, removed by stop(). Under root, run as the `postgres` user.
// No Vitest import, like local-postgres.ts.
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { describeFailure, findBinaries, serverUser } from './local-postgres.js';
import { INSERT_LSN_SQL, recordEnd } from '../sync-server/src/store/pg/replica.js';

const run = promisify(execFile);

export interface Replica {
  /** The replica's URL for `database` (the primary's own database by default): read-only. */
  url: string;
  /** Stops replaying WAL (pg_wal_replay_pause): the replica keeps answering, from where it stopped. */
  pause(): Promise<void>;
  /** Replays again; resolves once it has replayed everything the primary had written at the call. */
  resume(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written at the call. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

async function query<T>(url: string, text: string): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows[0] as T;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Starts a streaming replica of the server at `primaryUrl` (postgres://postgres@127.0.0.1:PORT/DB, trust auth). */
export async function startReplica(primaryUrl: string): Promise<Replica> {
  const { pgCtl } = findBinaries();
  // Beside pg_ctl's real file (a PATH entry may be a lone symlink to it, as /usr/local/bin/pg_ctl here).
  const basebackup = join(dirname(realpathSync(pgCtl)), 'pg_basebackup');
  const user = serverUser();
  const primary = new URL(primaryUrl);
  const dir = mkdtempSync(join(tmpdir(), 'crux-pg-replica-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const as = { cwd: dir, ...user, env: { ...process.env, LC_ALL: 'C' } };
  const remove = () => rmSync(dir, { recursive: true, force: true });

  try {
    // -R: standby.signal and primary_conninfo; -X stream: the WAL written during the copy comes along.
    await run(
      basebackup,
      ['-h', primary.hostname, '-p', primary.port, '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast'],
      as,
    );
  } catch (error) {
    remove();
    throw new Error(`pg_basebackup from ${primary.host} failed:\n${describeFailure(error)}`);
  }

  // The copy carries the primary's postgresql.auto.conf (its port and socket folder): later lines win.
  const port = await freePort();
  appendFileSync(join(data, 'postgresql.auto.conf'), `port = ${port}\nunix_socket_directories = '${dir}'\nhot_standby = on\n`);
  try {
    await run(pgCtl, ['start', '-D', data, '-l', log, '-w', '-t', '60'], as);
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
    remove();
    throw new Error(`pg_ctl start (replica) failed:\n${describeFailure(error)}\n${serverLog}`);
  }

  const stopArgs = ['stop', '-D', data, '-m', 'immediate', '-w'];
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync(pgCtl, stopArgs, { ...as, stdio: 'ignore' });
    } catch {
      // already gone
    }
    remove();
  };
  process.once('exit', stopNow);

  const url = new URL(primaryUrl);
  url.port = String(port);
  const replicaUrl = url.toString();
  const adminUrl = (base: URL) => Object.assign(new URL(base.toString()), { pathname: '/postgres' }).toString();

  async function catchUp() {
    // The end of the primary's last WAL record (the same measure as the store's: replica.ts).
    const lsn = recordEnd(await query<{ lsn: number; block: number; segment: number }>(adminUrl(primary), INSERT_LSN_SQL));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { done } = await query<{ done: boolean }>(adminUrl(url), `SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn) >= ${lsn} AS done`);
      if (done) return;
      if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${lsn} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  // Hot standby answers once it has reached a consistent state; wait for it and for the copy's end.
  await catchUp();

  return {
    url: replicaUrl,
    async pause() {
      await query(adminUrl(url), 'SELECT pg_wal_replay_pause()');
      // Requested is not yet done: a record being replayed finishes first.
      for (;;) {
        const { state } = await query<{ state: string }>(adminUrl(url), 'SELECT pg_get_wal_replay_pause_state() AS state');
        if (state === 'paused') return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async resume() {
      await query(adminUrl(url), 'SELECT pg_wal_replay_resume()');
      await catchUp();
    },
    catchUp,
    async stop() {
      process.removeListener('exit', stopNow);
      if (stopped) return;
      stopped = true;
      try {
        await run(pgCtl, stopArgs, as);
      } finally {
        remove();
      }
    },
  };
}
