// `npm start`'s terminal: the server's JSON lines through scripts/terminal-log.ts, as start.ts pipes
// them — one line per entry, answered requests hidden unless LOG_REQUESTS asks for them.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { isQuietRequest, logsRequests, terminalLog } from '../../scripts/terminal-log.js';

const time = Date.parse('2026-11-29T09:30:00Z');
const line = (entry: Record<string, unknown>) => JSON.stringify({ time, pid: 1, hostname: 'h', ...entry });
const LISTENING = line({ level: 30, msg: 'Crux listening on http://127.0.0.1:8080' });
const OK = line({ level: 30, reqId: 'r1', method: 'GET', route: '/api/topics/:id', status: 200, ms: 3.1, msg: 'request' });
const REFUSED = line({ level: 30, reqId: 'r2', method: 'POST', route: '/api/responses', status: 400, ms: 1.2, uid: 'u1', msg: 'request' });
const FAILED = line({ level: 50, reqId: 'r3', method: 'GET', route: '/api/leaderboard', status: 500, ms: 9, msg: 'request' });
const SYNC_PULL = line({ level: 30, reqId: 'r4', collection: 'topics', documents: 1, ms: 5.9, msg: 'sync pull' });
const WARNING = line({ level: 40, msg: 'SMTP not configured: mail is written to data/mail', detail: { folder: 'data/mail' } });

/** What the terminal shows for these server output chunks. */
async function printed(chunks: string[], requests: boolean): Promise<string[]> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (data: Buffer) => (text += data.toString('utf8')));
  const log = terminalLog({ requests, colorize: false, out });
  for (const chunk of chunks) log.write(chunk);
  await new Promise<void>((resolve) => log.end(resolve));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return text.split('\n').filter((l) => l !== '');
}

describe('npm start terminal log', () => {
  it('hides answered requests by default and keeps everything else, one line each', async () => {
    const lines = await printed([`${LISTENING}\n${OK}\n${REFUSED}\n${SYNC_PULL}\n`, `${WARNING}\n${FAILED}\n`], false);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('Crux listening on http://127.0.0.1:8080');
    expect(lines[1]).toContain('SMTP not configured');
    expect(lines[1]).toContain('data/mail');
    expect(lines[2]).toContain('GET /api/leaderboard 500 9 ms');
    expect(lines.join('\n')).not.toContain('/api/topics/:id');
    expect(lines.join('\n')).not.toContain('sync pull');
  });

  it('with LOG_REQUESTS=1, each request is one short line (with the uid, never the request id block)', async () => {
    const lines = await printed([OK.slice(0, 40), `${OK.slice(40)}\n${REFUSED}\n${SYNC_PULL}`], true);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('sync pull');
    expect(lines[0]).toMatch(/GET \/api\/topics\/:id 200 3\.1 ms/);
    expect(lines[1]).toMatch(/POST \/api\/responses 400 1\.2 ms/);
    expect(lines[1]).toContain('u1');
    expect(lines.join('\n')).not.toContain('r1');
  });

  it('reads LOG_REQUESTS and tells request lines from others', () => {
    expect(logsRequests({ LOG_REQUESTS: '1' })).toBe(true);
    expect(logsRequests({ LOG_REQUESTS: 'true' })).toBe(true);
    expect(logsRequests({})).toBe(false);
    expect(logsRequests({ LOG_REQUESTS: '0' })).toBe(false);
    expect(isQuietRequest(OK)).toBe(true);
    expect(isQuietRequest(FAILED)).toBe(false);
    expect(isQuietRequest(LISTENING)).toBe(false);
    expect(isQuietRequest(SYNC_PULL)).toBe(true);
    expect(isQuietRequest(WARNING)).toBe(false);
    expect(isQuietRequest('not json')).toBe(false);
  });
});
