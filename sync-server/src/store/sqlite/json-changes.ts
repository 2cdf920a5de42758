// A sync pull's page as SQLite writes it (store/sqlite/response-json.ts says why): the rows changed
// after a checkpoint, in (seq, id) order, each as its document's json_object, handed over as the
// UTF-8 bytes of one JSON array, with how many and the last one's checkpoint. Two statements in one
// transaction: the array, then the last row's (id, seq) found by skipping the ones before it.
import type { Db } from './connection.js';
import type { Checkpoint, JsonChanges } from '../rows.js';

/** A BLOB as the bytes an answer sends, no copy. */
export const bytesOf = (bytes: Buffer) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>;

export interface ChangesSource {
  /** The table and its alias (`topics t`). */
  table: string;
  /** The alias, whose seq and id order the page. */
  alias: string;
  /** The joins the document reads (`LEFT JOIN users u ON …`). */
  joins: string;
  /** A condition of the collection's scope before the checkpoint's (`t.topic_id = @topicId`), if any. */
  scope?: string;
  /** The document as a json_object expression (a tombstone for a deleted row). */
  doc: string;
}

export function changesAsJson<P extends object>(db: Db, source: ChangesSource) {
  const a = source.alias;
  const after = `WHERE ${source.scope ? `${source.scope} AND ` : ''}(${a}.seq > @seq OR (${a}.seq = @seq AND ${a}.id > @id)) ORDER BY ${a}.seq, ${a}.id`;
  type Params = P & Checkpoint & { limit: number };
  const json = db.prepare<Params, { json: Buffer; n: number }>(`
    SELECT CAST('[' || coalesce(group_concat(j, ','), '') || ']' AS BLOB) AS json, count(*) AS n FROM (
      SELECT ${source.doc} AS j FROM ${source.table} ${source.joins} ${after} LIMIT @limit
    )
  `);
  const last = db.prepare<Params & { n: number }, Checkpoint>(
    `SELECT ${a}.id, ${a}.seq FROM ${source.table} ${after} LIMIT 1 OFFSET @n - 1`,
  );
  return db.transaction((params: Params): JsonChanges => {
    const page = json.get(params)!;
    return { json: bytesOf(page.json), documents: page.n, checkpoint: page.n > 0 ? last.get({ ...params, n: page.n })! : null };
  });
}
