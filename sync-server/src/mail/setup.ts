// Wires the weekly mail from the configuration: the server (main.ts) and the commands
// (scripts/mail-weekly.ts, scripts/mail-scheduler.ts) build it the same way.
import { localUrl, type Config } from '../config.js';
import type { Store } from '../store/types.js';
import { parseSchedule, type Schedule } from './schedule.js';
import { loadSigningKey } from './signing-key.js';
import { createMailTransport } from './transport.js';
import type { MailerDeps } from './weekly.js';
import { logger } from '../observe/logger.js';

const mailLog = logger.child({ component: 'mail' });

export { localUrl };

export function createMailer(options: {
  config: Config;
  store: Store;
  /** The port the server listens on (PUBLIC_URL's default). */
  port: number;
  /** The key already loaded (the server loads it at start); else loaded here. */
  signingKey?: Buffer;
  log?: (line: string) => void;
  clock?: () => Date;
}): { deps: MailerDeps; schedule: Schedule } {
  const { config } = options;
  const schedule = parseSchedule(config.mail.schedule);
  return {
    schedule,
    deps: {
      store: options.store,
      transport: createMailTransport({ smtpUrl: config.mail.smtpUrl, outboxDir: config.mail.outboxDir }),
      signingKey:
        options.signingKey ??
        loadSigningKey({ configured: config.mail.signingKey, dataDir: config.dataDir, publicUrl: config.mail.publicUrl }),
      publicUrl: config.mail.publicUrl ?? localUrl(config.host, options.port),
      from: config.mail.from,
      clock: options.clock ?? (() => new Date()),
      log: options.log ?? ((line) => mailLog.info(line)),
    },
  };
}
