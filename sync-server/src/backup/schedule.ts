// Scheduled backups in the server process (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP;
// docs/OPERATIONS.md "Backups"): every BACKUP_EVERY_HOURS a consistent copy into BACKUP_DIR as
// crux-<UTC time>.sqlite (or .dump on PostgreSQL), and only the newest BACKUP_KEEP such files kept.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { logger } from '../observe/logger.js';

export interface BackupConfig {
  /** BACKUP_DIR: where scheduled backups go; unset: no schedule. */
  dir: string | undefined;
  /** BACKUP_EVERY_HOURS (default 24; fractions allowed). */
  everyHours: number;
  /** BACKUP_KEEP: the newest this many scheduled backups are kept (default 7). */
  keep: number;
}

const NAME = /^crux-\d{8}T\d{6}(?:\d{3})?Z\.(?:sqlite|dump)$/;

/** crux-20260101T080000123Z.sqlite: sorts by time. */
export function backupFileName(now: Date, extension: 'sqlite' | 'dump'): string {
  return `crux-${now.toISOString().replace(/[-:.]/g, '')}.${extension}`;
}

/** Removes all but the newest `keep` scheduled backups in `dir`; answers the names removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort();
  const removed = names.slice(0, Math.max(0, names.length - Math.max(1, keep)));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}

export interface BackupSchedule {
  /** Stops the timer and waits for a backup under way. */
  stop(): Promise<void>;
}

export function startBackupSchedule(options: {
  config: BackupConfig & { dir: string };
  extension: 'sqlite' | 'dump';
  backup(target: string): Promise<void>;
  log?: (message: string) => void;
}): BackupSchedule {
  const { config, extension, backup } = options;
  const log = options.log ?? ((message: string) => logger.info(message));
  let running: Promise<void> | undefined;
  const once = async () => {
    const target = join(config.dir, backupFileName(new Date(), extension));
    try {
      await backup(target);
      const removed = pruneBackups(config.dir, config.keep);
      log(`Backup written to ${target}${removed.length ? ` (removed ${removed.length} older)` : ''}.`);
    } catch (error) {
      logger.error({ err: error }, 'Scheduled backup failed');
    }
  };
  const timer = setInterval(
    () => {
      if (!running) running = once().finally(() => (running = undefined));
    },
    Math.max(1000, config.everyHours * 3_600_000),
  );
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
