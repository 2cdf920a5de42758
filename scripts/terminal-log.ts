// What `npm start` prints of the server's JSON log lines (sync-server/src/observe/logger.ts), for a
// person at a terminal: one line per entry, and none per answered request or sync call unless
// LOG_REQUESTS=1, so the start lines (the address, the demo accounts) stay on screen. A request
// that failed on the server (5xx) or a line above info is always shown. Production output is
// untouched: the server itself still writes every request's JSON line for a log shipper.
import { Transform, type Writable } from 'node:stream';
import pinoPretty from 'pino-pretty';

/** pino's level number for info: request lines are logged at it. */
const INFO = 30;

type Entry = Record<string, unknown>;

function parse(line: string): Entry | null {
  try {
    const entry: unknown = JSON.parse(line);
    return typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Entry) : null;
  } catch {
    return null;
  }
}

const isRequest = (entry: Entry) => entry.msg === 'request' && typeof entry.status === 'number';

/** A sync call's own line (sync/routes.ts): one more per pull or push, as often as requests. */
const isSyncCall = (entry: Entry) => entry.msg === 'sync pull' || entry.msg === 'sync push';

/** Whether a log entry is an ordinary answered request or sync call (the lines hidden by default). */
function isQuiet(entry: Entry): boolean {
  if (typeof entry.level !== 'number' || entry.level > INFO) return false;
  return (isRequest(entry) && (entry.status as number) < 500) || isSyncCall(entry);
}

/** Whether a JSON log line is an ordinary answered request or sync call. */
export function isQuietRequest(line: string): boolean {
  const entry = parse(line);
  return entry !== null && isQuiet(entry);
}

/**
 * The line as the terminal gets it (read once): null when hidden; a request shortened to
 * "GET /api/topics/:id 200 3.1 ms" (and the uid); anything else as it came.
 */
function shown(line: string, requests: boolean): string | null {
  if (line.trim() === '') return null;
  const entry = parse(line);
  if (!entry) return line;
  if (!requests && isQuiet(entry)) return null;
  if (!isRequest(entry)) return line;
  const { method, route, status, ms, level, time, uid } = entry;
  return JSON.stringify({
    level,
    time,
    msg: `${String(method)} ${String(route)} ${String(status)} ${String(ms)} ms`,
    ...(uid ? { uid } : {}),
  });
}

/** Whether LOG_REQUESTS asks for every request's line. */
export function logsRequests(env: NodeJS.ProcessEnv): boolean {
  return ['1', 'true', 'yes'].includes((env.LOG_REQUESTS ?? '').trim().toLowerCase());
}

/**
 * A stream to pipe the server's stdout into: it drops quiet request lines (unless `requests`) and
 * prints the rest readably, one line each, to `out`.
 */
export function terminalLog(options: { requests: boolean; colorize: boolean; out?: Writable }): Writable {
  const pretty = pinoPretty({
    colorize: options.colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    singleLine: true,
    destination: options.out ?? process.stdout,
    sync: true,
  });
  let rest = '';
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      const kept = lines.map((line) => shown(line, options.requests)).filter((line) => line !== null);
      done(null, kept.length > 0 ? kept.join('\n') + '\n' : undefined);
    },
    flush(done) {
      const last = shown(rest, options.requests);
      done(null, last === null ? undefined : last + '\n');
    },
  });
  filter.pipe(pretty);
  return filter;
}
