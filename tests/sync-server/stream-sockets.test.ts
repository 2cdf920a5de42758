// Live streams whose clients went away give back their sockets and their subscriptions:
// the second attack aborted 500 streams and found the server still holding descriptors 30 s later.
// Counted on the real server process: the clients' sockets it holds open (Linux /proc/<pid>/fd
// and /proc/<pid>/net/tcp: its descriptors that are connections to its port) and its open live
// streams (the crux_live_streams_open gauge, one per change-feed subscription), against the counts
// before, a few seconds after many clients leave at once. Both engines.
//
// Two ways of leaving:
// - after the stream's first event: a reset (RST), a close (FIN) and a half-close (FIN while still
//   reading, as a polite proxy does). Node sees each of these, even before the fix below.
// - before the first byte, while the server is still deciding who the caller is (the account's
//   state, AUTH_STATUS_CACHE_SECONDS=0 here so every request waits for it) and counting the stream
//   against the open-stream limits (a database round trip on PostgreSQL). The socket closes while
//   no listener of the stream exists yet; before the fix each such stream was served to a closed
//   socket, stuck for good: its subscription and its open-stream count (the caller's allowance)
//   were never given back, heartbeat or not.
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { testDatabase, type TestDatabase } from '../fixtures/test-db.js';

const STREAMS = 200;
const METRICS_TOKEN = 'stream-sockets-metrics-token';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The connections of clients to the server process's port that it still holds open: its
 * descriptors that are sockets (/proc/<pid>/fd), matched by inode to the TCP table's entries
 * whose local port is the server's and that are not the listener (the database's connections
 * and the like do not count).
 */
function clientSockets(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed between the listing and the look
    }
  }
  let count = 0;
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [, local, , state] = fields;
      const localPort = parseInt(local!.split(':')[1]!, 16);
      if (localPort === port && state !== '0A' && inodes.has(fields[9]!)) count++; // 0A: LISTEN
    }
  }
  return count;
}

type Leave = 'reset' | 'close' | 'half-close';

describe('live streams of clients that went away', () => {
  let dir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  let user: TestUser;
  let port: number;

  /** The live streams the server has open now (its gauge, read over a connection of its own that it closes). */
  async function streamsOpen(): Promise<number> {
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpGet(`${server.url}/metrics`, { agent: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
    });
    const match = /^crux_live_streams_open (\d+)/m.exec(text);
    if (!match) throw new Error('no crux_live_streams_open in /metrics');
    return Number(match[1]);
  }

  /** What the server holds now, polled until it is back to `before` or `ms` passed. */
  async function settle(before: { sockets: number; streams: number }, ms = 5000) {
    const pid = server.child.pid!;
    let now = { sockets: clientSockets(pid, port), streams: await streamsOpen() };
    for (let waited = 0; waited < ms && (now.sockets > before.sockets || now.streams > before.streams); waited += 250) {
      await sleep(250);
      now = { sockets: clientSockets(pid, port), streams: await streamsOpen() };
    }
    return now;
  }

  /** A raw connection asking for the live stream as `user` (the request a browser's fetch sends). */
  function request(socket: Socket) {
    socket.write(
      `GET /api/sync/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n` +
        `Authorization: Bearer ${user.token}\r\n${SYNC_PROTOCOL_HEADER}: ${SYNC_PROTOCOL_VERSION}\r\n\r\n`,
    );
  }

  /** A stream that got its first event; `leave` then goes away the way asked. */
  function openStream(): Promise<{ leave(how: Leave): void }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => request(socket));
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString();
        if (/^HTTP\/1\.1 (?!200)/.test(text)) return reject(new Error(`stream refused: ${text.split('\r\n')[0]}`));
        if (!text.includes('RESYNC')) return;
        socket.off('data', onData);
        resolve({
          leave(how) {
            if (how === 'reset') socket.resetAndDestroy();
            else if (how === 'close') socket.destroy();
            else socket.end(); // FIN, still reading
          },
        });
      };
      socket.on('data', onData);
      socket.on('error', (error) => (text.includes('RESYNC') ? undefined : reject(error)));
    });
  }

  /** A client that sends the request and is gone before any byte of the answer (its FIN right behind the request). */
  function leaveBeforeTheAnswer(): Promise<void> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        request(socket);
        socket.destroy();
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve());
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-stream-fds-'));
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    user = await createTestUser('Stream Leaver');
    // The heartbeat is every 15 s (STREAM_HEARTBEAT_MS): a socket or stream held until a
    // heartbeat's write fails would still be there when this test looks. The rate limits are on,
    // as in production, with room for exactly the test's streams from its one address and user:
    // a stream never given back leaves no room for the next.
    server = await startServerProcess(dir, database.url, {
      METRICS_TOKEN,
      RATE_LIMITS: 'on',
      RATE_LIMIT_USER_STREAMS: String(STREAMS),
      RATE_LIMIT_IP_STREAMS: String(STREAMS),
      AUTH_STATUS_CACHE_SECONDS: '0',
    });
    port = Number(new URL(server.url).port);
  }, 90_000);
  afterAll(async () => {
    killServerProcesses();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`gives back the sockets and streams of ${STREAMS} clients that reset, closed or half-closed after the first event`, async () => {
    const pid = server.child.pid!;
    const before = { sockets: clientSockets(pid, port), streams: await streamsOpen() };
    const streams: { leave(how: Leave): void }[] = [];
    for (let i = 0; i < STREAMS; i += 20) streams.push(...(await Promise.all(Array.from({ length: 20 }, () => openStream()))));
    expect(clientSockets(pid, port)).toBeGreaterThanOrEqual(before.sockets + STREAMS);
    expect(await streamsOpen()).toBe(before.streams + STREAMS);
    const ways: Leave[] = ['reset', 'close', 'half-close'];
    streams.forEach((stream, i) => stream.leave(ways[i % ways.length]!));
    const after = await settle(before);
    expect(after.streams, 'live streams still open').toBe(before.streams);
    expect(after.sockets, 'sockets still open').toBeLessThanOrEqual(before.sockets);
  });

  it(`gives back the streams of ${STREAMS} clients that left before the first byte, all at once; the caller can still open one`, async () => {
    const pid = server.child.pid!;
    const before = { sockets: clientSockets(pid, port), streams: await streamsOpen() };
    await Promise.all(Array.from({ length: STREAMS }, () => leaveBeforeTheAnswer()));
    const after = await settle(before);
    expect(after.streams, 'live streams still open (each one a change-feed subscription and an open-stream count)').toBe(before.streams);
    expect(after.sockets, 'sockets still open').toBeLessThanOrEqual(before.sockets);
    // The caller's open-stream allowance was given back too: a new stream is served.
    const stream = await openStream();
    expect(await streamsOpen()).toBe(before.streams + 1);
    stream.leave('close');
    expect((await settle(before)).streams).toBe(before.streams);
  });
});
