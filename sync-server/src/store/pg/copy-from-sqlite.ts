// Moves a Crux site from SQLite to PostgreSQL (`npm run db:copy-to-pg`): every row of
// every table, in one PostgreSQL transaction, keeping ids, change numbers (`seq`, and the counter
// past the largest, so installed apps carry on syncing from their checkpoints), the order rows
// were written in (SQLite's rowid, which some loops stamp seqs by) and the search index (rebuilt
// from the copied text, as the PostgreSQL store writes it). The target must hold no data yet.
import type Database from 'better-sqlite3';
import pg from 'pg';
import { checkOut } from './checkout.js';
import { migratePg } from './migrate.js';
import { SEQ_LOCK_KEY } from './seq.js';
import { tsvectorOf, type SearchTable } from './search.js';
import { decodeText, encodeParams } from './nul.js';
import { TABLES, type Table } from '../rows.js';

/** The searched text of each indexed table, as the PostgreSQL repositories index it. */
const SEARCHED: Record<SearchTable, { table: Table; columns: readonly string[] }> = {
  topics_fts: { table: 'topics', columns: ['title'] },
  responses_fts: { table: 'responses', columns: ['content'] },
  sources_fts: { table: 'sources', columns: ['name', 'url', 'description'] },
};

/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMS = 60_000;

export interface CopyReport {
  rows: Record<string, number>;
  seq: number;
}

export class TargetNotEmptyError extends Error {}

export async function copySqliteToPostgres(
  sqlite: Database.Database,
  connectionString: string,
  log: (line: string) => void = () => {},
): Promise<CopyReport> {
  const pool = new pg.Pool({ connectionString, max: 1 });
  // An idle connection that dies is an error of the next statement, not an uncaught exception.
  pool.on('error', () => {});
  try {
    await migratePg(pool);
    const { client, release } = await checkOut(pool);
    try {
      await client.query('BEGIN');
      // The seq lock, as every writer takes it: nothing else writes while the copy runs.
      await client.query('SELECT pg_advisory_xact_lock($1)', [SEQ_LOCK_KEY]);
      const { rows: existing } = await client.query('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM topics) AS n');
      if (Number(existing[0].n) > 0)
        throw new TargetNotEmptyError('The PostgreSQL database already holds users or topics: copy into an empty one.');
      const report: CopyReport = { rows: {}, seq: 0 };
      for (const [table, { order }] of Object.entries(TABLES)) report.rows[table] = await copyTable(sqlite, client, table, order, log);
      for (const [fts, { table, columns }] of Object.entries(SEARCHED)) await indexTable(client, table, fts, columns);
      // Identity columns continue after the copied keys.
      for (const [table, { identity }] of Object.entries(TABLES)) {
        if (identity)
          await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'pk'), greatest((SELECT max(pk) FROM ${table}), 1))`);
      }
      report.seq = (sqlite.prepare("SELECT value FROM meta WHERE key = 'seq'").get() as { value: number }).value;
      await client.query("UPDATE crux_meta SET value = $1 WHERE key = 'seq'", [report.seq]);
      await client.query('COMMIT');
      // Fresh statistics for the planner: before autovacuum gets to the new rows, it would guess
      // the tables are nearly empty and choose plans that read them whole.
      await client.query('ANALYZE');
      log(`copied; the next change number is ${report.seq + 1}`);
      return report;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      release();
    }
  } finally {
    await pool.end();
  }
}

async function copyTable(sqlite: Database.Database, client: pg.PoolClient, table: string, order: string, log: (line: string) => void) {
  const sourceColumns = (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((column) => column.name);
  const { rows: targetRows } = await client.query<{ column_name: string; is_identity: string }>(
    `SELECT column_name, is_identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
    [table],
  );
  const target = new Map(targetRows.map((row) => [row.column_name, row.is_identity === 'YES']));
  // A PostgreSQL-only key (votes.pk, notifications.pk) is generated in the order rows are inserted.
  const columns = sourceColumns.filter((column) => target.has(column));
  const missing = [...target.keys()].filter((column) => !sourceColumns.includes(column) && !target.get(column));
  if (missing.length > 0) throw new Error(`${table}: the SQLite file has no ${missing.join(', ')} (migrate it first)`);
  const overriding = columns.some((column) => target.get(column)) ? 'OVERRIDING SYSTEM VALUE' : '';
  const perBatch = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const select = sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${order}`).raw(true);
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch.map((_, row) => `(${columns.map((__, column) => `$${row * columns.length + column + 1}`).join(', ')})`);
    await client.query(
      `INSERT INTO ${table} (${columns.join(', ')}) ${overriding} VALUES ${values.join(', ')}`,
      encodeParams(batch.flat()),
    );
    copied += batch.length;
    batch = [];
  };
  for (const row of select.iterate() as Iterable<unknown[]>) {
    batch.push(row);
    if (batch.length >= perBatch) await flush();
  }
  await flush();
  log(`${table}: ${copied.toLocaleString('en')} rows`);
  return copied;
}

async function indexTable(client: pg.PoolClient, table: string, fts: string, columns: readonly string[]) {
  const perBatch = MAX_PARAMS / 3;
  let after = 0;
  for (;;) {
    const { rows } = await client.query<Record<string, string | null> & { pk: string }>(
      `SELECT pk, ${columns.join(', ')} FROM ${table} WHERE pk > $1 ORDER BY pk LIMIT $2`,
      [after, perBatch],
    );
    if (rows.length === 0) break;
    const values = rows.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}::tsvector, $${3 * i + 3})`);
    const params = rows.flatMap((row) => {
      const text = tsvectorOf(...columns.map((column) => (row[column] == null ? row[column] : decodeText(row[column]))));
      return [row.pk, text.words, text.tokens];
    });
    await client.query(`INSERT INTO ${fts} (pk, words, tokens) VALUES ${values.join(', ')}`, params);
    after = Number(rows[rows.length - 1]!.pk);
  }
  // The totals BM25 ranks by, as the repositories keep them.
  await client.query(
    `UPDATE crux_fts_stats SET rows = (SELECT count(*) FROM ${fts}), tokens = (SELECT coalesce(sum(tokens), 0) FROM ${fts}) WHERE tbl = $1`,
    [fts],
  );
}
