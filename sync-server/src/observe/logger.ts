// Structured logs (docs/OPERATIONS.md "Logs"): one JSON line per event on stdout,
// written by pino through an asynchronous destination (a request never waits for the terminal or a
// log shipper's pipe; what is buffered is flushed synchronously when the process exits).
// LOG_LEVEL sets the level (trace, debug, info, warn, error, fatal, silent); its default is info,
// and silent under Vitest (NODE_ENV=test), so a test run is not flooded. `npm start` pipes the
// lines through pino-pretty (scripts/start.ts); production keeps JSON.
// Never logged: a bearer token, an e-mail address. No log call passes either (lines name the uid),
// and tests/sync-server/observability.test.ts greps a real server's output for both; the redaction
// below is a net under that rule (named paths only: a wildcard would walk every line's fields).
import { pino, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** LOG_LEVEL, checked: a typo must not silently turn the logs off. */
export function readLogLevel(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return env.NODE_ENV === 'test' ? 'silent' : 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}").`);
  return raw;
}

/** `destination`: stdout (1) by default; a file path for the benches (/dev/null: every line built and written, none kept). */
export function createLogger(env: NodeJS.ProcessEnv = process.env, destination: number | string = 1): Logger {
  return pino(
    {
      level: readLogLevel(env),
      base: { pid: process.pid },
      redact: {
        paths: ['token', 'email', 'authorization', 'headers.authorization', 'user.email', 'err.config.headers.authorization'],
        censor: '[redacted]',
      },
      serializers: { err: pino.stdSerializers.err },
    },
    pino.destination({ dest: destination, sync: false }),
  );
}

/** The process's logger (the server, the mail and push senders, the commands). */
export const logger: Logger = createLogger();
