// A local PostgreSQL server run by Crux itself: for a test file, a throwaway
// cluster in a temp folder (removed by stop()); for `npm run start:pg`, a cluster kept
// under DATA_DIR/postgres between runs. On a free loopback port (or PG_PORT), trust auth,
// loopback only. PostgreSQL refuses to run as root, so under root (CI, containers) every
// command runs as the `postgres` user and the folder is handed to that user.
// No Vitest import: tests (tests/fixtures/postgres.ts), benches and scripts use it.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

const INSTALL_HINT = 'install PostgreSQL (Debian: `apt-get install -y postgresql`)';
const TEST_DATABASE = 'crux_test';

export interface Postgres {
  /** postgres://postgres@127.0.0.1:PORT/<database> (trust auth: no password). */
  url: string;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /**
   * Keep the cluster in this folder (created on the first start, reused after) and leave it in
   * place at stop(), durable (fsync on). Unset: a throwaway cluster in a temp folder, fsync off.
   */
  dir?: string;
  /** The database to create if missing (default crux_test). */
  database?: string;
  /** A fixed port (default: a free one). */
  port?: number;
}

/** initdb and pg_ctl: from PATH, else the newest /usr/lib/postgresql/<version>/bin (Debian keeps them off PATH). */
export function findBinaries(): { initdb: string; pgCtl: string } {
  const onPath = (name: string) =>
    (process.env.PATH ?? '')
      .split(':')
      .filter(Boolean)
      .map((dir) => join(dir, name))
      .find((path) => existsSync(path));
  let initdb = onPath('initdb');
  let pgCtl = onPath('pg_ctl');
  if (!initdb || !pgCtl) {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root)
      ? readdirSync(root)
          .filter((name) => /^\d+(\.\d+)?$/.test(name))
          .sort((a, b) => Number(b) - Number(a))
      : [];
    const bin = versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
    if (bin) {
      initdb = join(bin, 'initdb');
      pgCtl = join(bin, 'pg_ctl');
    }
  }
  if (!initdb || !pgCtl || !existsSync(pgCtl))
    throw new Error(`PostgreSQL's initdb and pg_ctl were not found on PATH nor under /usr/lib/postgresql/*/bin: ${INSTALL_HINT}`);
  return { initdb, pgCtl };
}

/** Who runs the server: ourselves, or under root the `postgres` user (uid and gid for execFile). */
export function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      'PostgreSQL refuses to run as root, and there is no `postgres` user to run it as: ' +
        `create one (\`useradd --system postgres\`) or ${INSTALL_HINT}, which creates it`,
    );
  }
}

export function describeFailure(error: unknown): string {
  const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message?: string };
  return [message, stdout, stderr].filter(Boolean).join('\n');
}

export async function startPostgres(options: PostgresOptions = {}): Promise<Postgres> {
  const { initdb, pgCtl } = findBinaries();
  const user = serverUser();
  const keep = options.dir !== undefined;
  const database = options.database ?? TEST_DATABASE;
  const dir = keep ? resolve(options.dir!) : mkdtempSync(join(tmpdir(), 'crux-pg-'));
  mkdirSync(dir, { recursive: true });
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  // cwd: the folder, so no tool complains it cannot read root's home directory.
  const as = { cwd: dir, ...user, env: { ...process.env, LC_ALL: 'C' } };
  const remove = () => {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };

  // A kept cluster left running by a run that crashed: stopped first, then started as asked.
  if (keep && existsSync(join(data, 'postmaster.pid'))) await run(pgCtl, ['stop', '-D', data, '-m', 'fast', '-w'], as).catch(() => {});
  if (!existsSync(join(data, 'PG_VERSION'))) {
    try {
      await run(initdb, ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', ...(keep ? [] : ['--no-sync'])], as);
    } catch (error) {
      remove();
      throw new Error(`initdb failed in ${dir}:\n${describeFailure(error)}`);
    }
  }

  // The port is picked free and then bound by the server: another process may take it in
  // between, so a start that fails is tried again on a new port.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = options.port ?? (await freePort());
    const settings = [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      // A test database is thrown away: durability only costs time.
      ...(keep ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']),
    ];
    writeFileSync(join(data, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
    if (user) chownSync(join(data, 'postgresql.auto.conf'), user.uid, user.gid);
    try {
      // -w: returns once the server accepts connections (pg_ctl pings it).
      await run(pgCtl, ['start', '-D', data, '-l', log, '-w', '-t', '60'], as);
      break;
    } catch (error) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
      if (attempt < 3 && options.port === undefined && /could not bind|address already in use/i.test(serverLog)) continue;
      remove();
      throw new Error(`pg_ctl start failed:\n${describeFailure(error)}\n${serverLog}`);
    }
  }

  // A kept cluster is shut down cleanly; a throwaway one is simply killed.
  const stopArgs = ['stop', '-D', data, '-m', keep ? 'fast' : 'immediate', '-w'];
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
  // A run that ends without stop() (a crash, a forgotten afterAll) leaves no server behind.
  process.once('exit', stopNow);

  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  try {
    await admin.connect();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } catch (error) {
    stopNow();
    throw error;
  } finally {
    await admin.end().catch(() => undefined);
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    stop: async () => {
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
