import { logger } from './logger.js';

/**
 * A line tests and scripts read (the port when PORT=0): a log line at info, and printed plainly
 * when the level hides info (LOG_LEVEL=warn, or silent under tests), so it is always there.
 */
export function announce(message: string, fields: Record<string, unknown>) {
  if (logger.isLevelEnabled('info')) logger.info(fields, message);
  else process.stdout.write(`${message}\n`);
}
