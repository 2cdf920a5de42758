// A pulled page is written in slices with the main thread given back between them (write-slices.ts):
// no one write of a thousand documents, every row written once in order, and every slice's errors kept.
import type { BulkWriteRow, RxStorageBulkWriteResponse } from 'rxdb';
import { describe, expect, it } from 'vitest';
import { WRITE_SLICE, writeInSlices } from '../../app/src/data/write-slices.js';

type Doc = { id: string };
const rows = (n: number): BulkWriteRow<Doc>[] =>
  Array.from({ length: n }, (_, i) => ({ document: { id: `d${i}` } as BulkWriteRow<Doc>['document'] }));

describe('writeInSlices', () => {
  it('writes a page of 1,000 in slices, giving the main thread back between them, and keeps every error', async () => {
    const slices: string[][] = [];
    let timersRun = 0;
    const timersRunAtEachWrite: number[] = [];
    const write = async (slice: BulkWriteRow<Doc>[], context: string): Promise<RxStorageBulkWriteResponse<Doc>> => {
      expect(context).toBe('replication-downstream-x');
      timersRunAtEachWrite.push(timersRun);
      // A task queued during this write runs before the next slice only if the main thread was given back.
      setTimeout(() => timersRun++, 0);
      slices.push(slice.map((row) => row.document.id));
      const first = slice[0]!.document;
      return {
        error: [{ status: 409, isError: true, documentId: first.id, writeRow: slice[0]!, context, documentInDb: slice[0]!.document }],
      };
    };
    const result = await writeInSlices(write, rows(1000), 'replication-downstream-x');
    expect(slices.map((s) => s.length)).toEqual(Array(1000 / WRITE_SLICE).fill(WRITE_SLICE));
    expect(slices.flat()).toEqual(rows(1000).map((row) => row.document.id));
    expect(timersRunAtEachWrite).toEqual(timersRunAtEachWrite.map((_, i) => i));
    expect(result.error.map((e) => e.documentId)).toEqual(slices.map((s) => s[0]));
  });

  it('writes a small page at once', async () => {
    const sizes: number[] = [];
    await writeInSlices(async (slice) => (sizes.push(slice.length), { error: [] }), rows(WRITE_SLICE), 'c');
    expect(sizes).toEqual([WRITE_SLICE]);
  });
});
