// The WAL checkpointer's thread (checkpointer.ts starts it): a connection of its own to the database
// file, a PASSIVE checkpoint round after round while writes come in, so the WAL is never far ahead of
// the database file, and at the quiet pace once nothing has moved for `quietRounds` rounds. Any
// message stops it: a last checkpoint, then its connection closes.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface CheckpointerData {
  file: string;
  /** The quiet pace (ms), and the wait before the first round. */
  everyMs: number;
  /** The pace while writes come in (ms). */
  busyMs: number;
  /** Rounds in which nothing moved before the quiet pace. */
  quietRounds: number;
}

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const port = parentPort;
if (!port) throw new Error('checkpointer-worker.ts runs as a worker thread');
const data = workerData as CheckpointerData;
const db = new Database(data.file, { timeout: 0 });
let last = '';
let quietRounds = 0;
let timer: NodeJS.Timeout;

/** One PASSIVE checkpoint; whether the WAL's frame counts moved since the round before (writes came in), or it was busy. */
function checkpoint(): boolean {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
    const state = !result || result.busy ? 'busy' : `${result.log}:${result.checkpointed}`;
    const moved = state === 'busy' || state !== last;
    last = state;
    return moved;
  } catch {
    // busy (another connection checkpoints) or closing: soon again
    return true;
  }
}

function loop() {
  quietRounds = checkpoint() ? 0 : quietRounds + 1;
  timer = setTimeout(loop, quietRounds >= data.quietRounds ? data.everyMs : data.busyMs);
}

timer = setTimeout(loop, data.everyMs);
port.on('message', () => {
  clearTimeout(timer);
  checkpoint();
  db.close();
  port.close();
});
