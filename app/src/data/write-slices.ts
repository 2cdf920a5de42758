// A pulled page is stored in slices: one storage write of a whole page (up to a thousand documents:
// reading what is there, comparing, cloning each into IndexedDB, then every open query told of each
// change) is one long task on a phone's CPU, and the screen answers no tap meanwhile. Written a
// hundred at a time, with the main thread given back between slices, each is a short task of its own,
// and the screens see the page arrive in parts.
import type { BulkWriteRow, RxStorageBulkWriteResponse } from 'rxdb';
import { yieldToMain } from './yield.js';

/** Documents per write: well under 50 ms of main-thread work at a phone's 4× slower CPU. */
export const WRITE_SLICE = 50;

type Write<Doc> = (rows: BulkWriteRow<Doc>[], context: string) => Promise<RxStorageBulkWriteResponse<Doc>>;

/** `write` of `rows` in slices of `slice`, the main thread given back before each slice after the first; the errors of all. */
export async function writeInSlices<Doc>(
  write: Write<Doc>,
  rows: BulkWriteRow<Doc>[],
  context: string,
  slice = WRITE_SLICE,
): Promise<RxStorageBulkWriteResponse<Doc>> {
  if (rows.length <= slice) return write(rows, context);
  const error: RxStorageBulkWriteResponse<Doc>['error'] = [];
  for (let from = 0; from < rows.length; from += slice) {
    if (from > 0) await yieldToMain();
    error.push(...(await write(rows.slice(from, from + slice), context)).error);
  }
  return { error };
}
