// The versions the kept pages hang on (the topics' listVersion, the change number), kept in memory on
// PostgreSQL as SQLite keeps them (store/sqlite/kept-versions.ts) instead of read from the database for
// every request: each read is a round trip, and the hot list and a topic's signed-out answer, which are
// otherwise kept bytes, waited for it (3,900–4,500 req/s against SQLite's 20,000 in the same minute).
//
// A version read stays trusted until something may have moved it:
// - a write of this process: every change the versions follow stamps a seq, and the store calls
//   `changed()` once such a transaction has committed, so a read started before that COMMIT is never
//   trusted after it, and the next request reads again;
// - a write of another server process: its change feed message (LISTEN/NOTIFY), when it arrives
//   (backend.ts calls changedElsewhere);
// - anything else (a message still on its way, a script writing the database): the version is read
//   again once it is RECHECK_MS old, so such a write shows in the kept pages at most that long (plus
//   the read's own time) after its COMMIT, as on SQLite.
// Requests that need a version while one read is under way (started at the same epoch, and recently)
// wait for that read instead of each sending their own.
import { RECHECK_MS } from '../kept-versions.js';

export interface PgKeptVersion {
  /** The version while trusted, without waiting; else undefined (await read()). */
  now(): number | undefined;
  /** The version: the kept one while trusted, else read (or the read already under way). */
  read(): Promise<number>;
}

export function createPgVersionClock(options: { recheckMs?: number; now?: () => number } = {}) {
  const recheckMs = options.recheckMs ?? RECHECK_MS;
  const clock = options.now ?? (() => performance.now());
  let epoch = 0;
  return {
    /** A write may have moved the versions: the next use of each reads it again. */
    changed() {
      epoch++;
    },
    /** A version read by `read`; inside a transaction (its own uncommitted rows) always read, never kept. */
    track(read: () => Promise<number>, inTransaction: () => boolean): PgKeptVersion {
      let kept = { version: 0, epoch: -1, at: -Infinity };
      let reading: { epoch: number; at: number; version: Promise<number> } | null = null;
      const fresh = (noted: { epoch: number; at: number }) => noted.epoch === epoch && clock() - noted.at < recheckMs;
      return {
        now: () => (!inTransaction() && fresh(kept) ? kept.version : undefined),
        read() {
          if (inTransaction()) return read();
          if (fresh(kept)) return Promise.resolve(kept.version);
          if (reading && fresh(reading)) return reading.version;
          const started = { epoch, at: clock() };
          const version = read().then((value) => {
            // Noted as of the read's start, and only if no later read was noted.
            if (started.epoch > kept.epoch || (started.epoch === kept.epoch && started.at >= kept.at))
              kept = { version: value, ...started };
            return value;
          });
          const mine = { ...started, version };
          reading = mine;
          const done = () => {
            if (reading === mine) reading = null;
          };
          version.then(done, done);
          return version;
        },
      };
    },
  };
}
