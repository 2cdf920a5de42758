// A pulled page is stored in slices: one storage write of a whole page (reading what is there,
// comparing, cloning each document into IndexedDB, then every open query told of each change) is one
// long task on a phone's CPU, and the screen answers no tap meanwhile. Written a few dozen at a time,
// with the main thread given back between slices, each is a short task of its own, and the screens see
// the page arrive in parts. How many a slice holds follows how long the last slices took on this
// device (SliceSizer): a busy or slow phone writes smaller slices, a fast one fewer and larger.
import type { BulkWriteRow, RxStorageBulkWriteResponse } from 'rxdb';
import { yieldToMain } from './yield.js';

/** Documents in the first slice, before this device's speed is known. */
export const WRITE_SLICE = 25;
/** What a slice may take, from the write's call to its answer (the main thread's share of it is less). */
export const SLICE_TARGET_MS = 30;
export const MIN_SLICE = 10;
export const MAX_SLICE = 200;

/** The size of the next slice, from the time per document of the slices written so far. */
export class SliceSizer {
  private size = WRITE_SLICE;
  /** Time per document, smoothed over the last slices (ms). */
  private perDoc: number | null = null;

  next(): number {
    return this.size;
  }

  /** A slice of `count` documents took `ms`. */
  record(count: number, ms: number): void {
    if (count <= 0 || !Number.isFinite(ms)) return;
    const sample = Math.max(ms, 0) / count;
    // A slow slice counts at once (a tap may be waiting); a quick one only halfway.
    this.perDoc = this.perDoc === null || sample > this.perDoc ? sample : (this.perDoc + sample) / 2;
    const fits = this.perDoc > 0 ? Math.floor(SLICE_TARGET_MS / this.perDoc) : MAX_SLICE;
    // Grow at most twofold a slice; shrink at once.
    this.size = Math.max(MIN_SLICE, Math.min(MAX_SLICE, fits, this.size * 2));
  }
}

/** One sizer for every collection: the time a document takes is the device's and its load's. */
const shared = new SliceSizer();

type Write<Doc> = (rows: BulkWriteRow<Doc>[], context: string) => Promise<RxStorageBulkWriteResponse<Doc>>;

/** `write` of `rows` in slices, the main thread given back before each slice after the first; the errors of all. */
export async function writeInSlices<Doc>(
  write: Write<Doc>,
  rows: BulkWriteRow<Doc>[],
  context: string,
  sizer: SliceSizer = shared,
): Promise<RxStorageBulkWriteResponse<Doc>> {
  const error: RxStorageBulkWriteResponse<Doc>['error'] = [];
  for (let from = 0; from < rows.length;) {
    if (from > 0) await yieldToMain();
    const slice = rows.slice(from, from + sizer.next());
    const started = performance.now();
    const answer = await write(slice, context);
    sizer.record(slice.length, performance.now() - started);
    error.push(...answer.error);
    from += slice.length;
  }
  return { error };
}
