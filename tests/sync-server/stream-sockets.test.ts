// Live streams whose clients went away give their sockets back at once (issue 25): the second
// attack aborted 500 streams and found 85–337 descriptors of the server still open 30 s later,
// held until each stream's next heartbeat. Counted here as the real server process's open file
// descriptors (Linux /proc), a few seconds after many clients abort, against the count before.
// Runs on both engines.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { testDatabase, type TestDatabase } from '../fixtures/test-db.js';

const STREAMS = 200;
const openDescriptors = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens one live stream and resolves once its first event arrived; `abort` then drops the connection. */
function openStream(url: string): Promise<{ abort(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/sync/stream`,
      { headers: { accept: 'text/event-stream', [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION) } },
      (res) => {
        res.once('data', () => resolve({ abort: () => req.destroy() }));
        res.on('error', () => {});
      },
    );
    req.on('error', (error) => reject(error));
    req.end();
  });
}

describe('live streams of clients that went away', () => {
  let dir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-stream-fds-'));
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    // The heartbeat is every 15 s (STREAM_HEARTBEAT_MS): a socket held until a heartbeat's write
    // fails would still be open when this test looks.
    server = await startServerProcess(dir, database.url);
  }, 90_000);
  afterAll(async () => {
    killServerProcesses();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`gives back the descriptors of ${STREAMS} aborted streams within seconds`, async () => {
    const pid = server.child.pid!;
    const before = openDescriptors(pid);
    const streams: { abort(): void }[] = [];
    for (let i = 0; i < STREAMS; i += 20) streams.push(...(await Promise.all(Array.from({ length: 20 }, () => openStream(server.url)))));
    expect(openDescriptors(pid)).toBeGreaterThanOrEqual(before + STREAMS);
    for (const stream of streams) stream.abort();
    let after = openDescriptors(pid);
    for (let waited = 0; waited < 5000 && after > before + 10; waited += 250) {
      await sleep(250);
      after = openDescriptors(pid);
    }
    expect(after).toBeLessThanOrEqual(before + 10);
  });
});
