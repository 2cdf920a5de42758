// A pulled page is written in slices with the main thread given back between them (write-slices.ts):
// no one write of a thousand documents, every row written once in order, every slice's errors kept,
// and slices that follow how long this device takes to write a document.
import type { BulkWriteRow, RxStorageBulkWriteResponse } from 'rxdb';
import { describe, expect, it } from 'vitest';
import { MAX_SLICE, MIN_SLICE, SLICE_TARGET_MS, SliceSizer, WRITE_SLICE, writeInSlices } from '../../app/src/data/write-slices.js';

type Doc = { id: string };
const rows = (n: number): BulkWriteRow<Doc>[] =>
  Array.from({ length: n }, (_, i) => ({ document: { id: `d${i}` } as BulkWriteRow<Doc>['document'] }));

/** A sizer that always answers `size` (the slicing itself, apart from the device's speed). */
class FixedSizer extends SliceSizer {
  constructor(private readonly fixed: number) {
    super();
  }
  override next() {
    return this.fixed;
  }
}

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
    const result = await writeInSlices(write, rows(1000), 'replication-downstream-x', new FixedSizer(WRITE_SLICE));
    expect(slices.map((s) => s.length)).toEqual(Array(1000 / WRITE_SLICE).fill(WRITE_SLICE));
    expect(slices.flat()).toEqual(rows(1000).map((row) => row.document.id));
    expect(timersRunAtEachWrite).toEqual(timersRunAtEachWrite.map((_, i) => i));
    expect(result.error.map((e) => e.documentId)).toEqual(slices.map((s) => s[0]));
  });

  it('writes a small page at once', async () => {
    const sizes: number[] = [];
    await writeInSlices(async (slice) => (sizes.push(slice.length), { error: [] }), rows(WRITE_SLICE), 'c', new SliceSizer());
    expect(sizes).toEqual([WRITE_SLICE]);
  });

  it('writes every row once in order whatever sizes the slices take', async () => {
    const written: string[] = [];
    const sizer = new SliceSizer();
    let call = 0;
    // Each slice alternately slow and quick, so that the sizes change from slice to slice.
    sizer.record = function (count: number) {
      SliceSizer.prototype.record.call(this, count, call++ % 2 === 0 ? count * 3 : count * 0.01);
    };
    await writeInSlices(async (slice) => (written.push(...slice.map((row) => row.document.id)), { error: [] }), rows(777), 'c', sizer);
    expect(written).toEqual(rows(777).map((row) => row.document.id));
  });
});

describe('SliceSizer', () => {
  it('starts at WRITE_SLICE and sizes slices to take about SLICE_TARGET_MS on this device', () => {
    const sizer = new SliceSizer();
    expect(sizer.next()).toBe(WRITE_SLICE);
    // A phone under load: the first slice took 3 ms a document.
    sizer.record(WRITE_SLICE, WRITE_SLICE * 3);
    expect(sizer.next()).toBe(Math.floor(SLICE_TARGET_MS / 3));
    // Slower still: never under MIN_SLICE.
    sizer.record(10, 1_000);
    expect(sizer.next()).toBe(MIN_SLICE);
  });

  it('grows at most twofold a slice on a quick device, up to MAX_SLICE', () => {
    const sizer = new SliceSizer();
    const sizes: number[] = [];
    for (let i = 0; i < 6; i++) {
      sizer.record(sizer.next(), sizer.next() * 0.01);
      sizes.push(sizer.next());
    }
    expect(sizes).toEqual([2, 4, 8, 16, 32, 64].map((times) => Math.min(WRITE_SLICE * times, MAX_SLICE)));
  });

  it('shrinks at once when a slice is slow, and recovers only as quick slices follow', () => {
    const sizer = new SliceSizer();
    sizer.record(WRITE_SLICE, WRITE_SLICE * 0.1); // 0.1 ms a document: twice as many next
    expect(sizer.next()).toBe(WRITE_SLICE * 2);
    sizer.record(WRITE_SLICE * 2, WRITE_SLICE * 2 * 3); // 3 ms a document: a busy moment
    expect(sizer.next()).toBe(10);
    sizer.record(10, 1); // quick again: the estimate moves halfway, to 1.55 ms a document
    expect(sizer.next()).toBe(Math.floor(SLICE_TARGET_MS / 1.55));
    sizer.record(19, 0.19); // and on: 0.78 ms a document, and at most twice the last slice
    expect(sizer.next()).toBe(Math.min(19 * 2, Math.floor(SLICE_TARGET_MS / 0.78)));
  });
});
