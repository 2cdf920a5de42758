// The backup's thread (backup.ts starts it): SQLite's online backup of `source` into `target` on a
// connection of its own, every page in one step (one snapshot), then the copy's quick_check. It answers once.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface BackupData {
  source: string;
  target: string;
  timeoutMs: number;
}

export type BackupAnswer = { ok: true } | { ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('backup-worker.ts runs as a worker thread');
const data = workerData as BackupData;

async function backup() {
  const source = new Database(data.source, { fileMustExist: true, timeout: data.timeoutMs });
  try {
    // Every remaining page in the second step (the first one only sizes the copy): one snapshot.
    await source.backup(data.target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new Database(data.target, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`the copy fails quick_check: ${check}`);
  } finally {
    copy.close();
  }
}

backup().then(
  () => port.postMessage({ ok: true } satisfies BackupAnswer),
  (error: unknown) => {
    const failure = error as { message?: unknown } | null;
    port.postMessage({ ok: false, message: String(failure?.message || error) } satisfies BackupAnswer);
  },
);
