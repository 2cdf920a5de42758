// The versions the kept pages hang on (the topics' listVersion, the database's changeNumber),
// known in memory instead of read from the file on every request. Reading either is
// one statement, and any statement that touches the file opens a WAL read transaction (locks in
// the -shm file): 3–7 µs, a sixth of a kept topic list's whole cost on the production process.
//
// A version read once stays trusted until something may have moved it:
// - a write of this process: every change the versions follow stamps a seq from nextSeq
//   (store.ts bumps the epoch there, before the statement), so the first read after it reads
//   the file again, and that read takes its turn like any outside read (transactions.ts): after
//   the write's group has committed. A write here is therefore seen by the next request exactly,
//   as before;
// - a write of another server process on the file (SERVER_PROCESSES): its change feed message,
//   the moment it arrives over IPC (backend.ts calls changedElsewhere);
// - anything else writing the file (a CLI script, a second process outside the cluster, a feed
//   message still on its way): the version is read again once it is RECHECK_MS old. Such a write
//   shows in the kept pages at most RECHECK_MS (plus the read's own time) after its COMMIT.
// A read started at one epoch is trusted only at that epoch, so a write that lands while it runs
// makes the next request read again.

import { RECHECK_MS } from '../kept-versions.js';

export interface VersionClock {
  /** A write may have moved the versions: the next use of each reads it again. */
  changed(): void;
  /** A version read by `turns.statement` and kept as above. */
  track(turns: VersionReads): KeptVersion;
}

/** How a version is read from the file (store.ts passes the connection's turns: transactions.ts). */
export interface VersionReads {
  /** The statement itself (synchronous). */
  statement(): number;
  /** Runs it at once when no transaction holds the connection's turn, else undefined (transactions.ts readNow). */
  readNow(fn: () => number): number | undefined;
  /** Runs it in its turn (after an open transaction and its group's COMMIT). */
  inTurn(fn: () => number): Promise<number>;
  /** Inside a transaction a read sees its uncommitted rows: answered, never kept. */
  inTransaction(): boolean;
}

export interface KeptVersion {
  /** The version without waiting: the kept one while trusted, else read now if the turn is free; undefined when it must wait. */
  now(): number | undefined;
  /** The version: the kept one while trusted, else read in turn. */
  read(): Promise<number>;
}

export interface VersionClockOptions {
  /** Default RECHECK_MS. */
  recheckMs?: number;
  /** Milliseconds on a monotonic clock (default performance.now). */
  now?: () => number;
}

export function createVersionClock(options: VersionClockOptions = {}): VersionClock {
  const recheckMs = options.recheckMs ?? RECHECK_MS;
  const clock = options.now ?? (() => performance.now());
  let epoch = 0;
  return {
    changed() {
      epoch++;
    },
    track({ statement, readNow, inTurn, inTransaction }) {
      let kept = { version: 0, epoch: -1, at: -Infinity };
      const trusted = () => (kept.epoch === epoch && clock() - kept.at < recheckMs ? kept.version : undefined);
      // Noted as of the read's start (its epoch and time), and only if no later read was noted.
      const note = (version: number, startEpoch: number, at: number) => {
        if (startEpoch > kept.epoch || (startEpoch === kept.epoch && at >= kept.at)) kept = { version, epoch: startEpoch, at };
        return version;
      };
      const readNoted = () => {
        const startEpoch = epoch;
        const at = clock();
        return (version: number) => note(version, startEpoch, at);
      };
      return {
        now() {
          const version = trusted();
          if (version !== undefined) return version;
          if (inTransaction()) return statement();
          const noted = readNoted();
          const read = readNow(statement);
          return read === undefined ? undefined : noted(read);
        },
        async read() {
          const version = trusted();
          if (version !== undefined) return version;
          if (inTransaction()) return statement();
          const noted = readNoted();
          return noted(await inTurn(statement));
        },
      };
    },
  };
}
