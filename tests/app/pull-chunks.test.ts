// A server page of pulled documents is handed to RxDB a part at a time (pull-chunks.ts): the server is
// asked for pages as before, each part ends at its last document's position (the last part at the
// server's checkpoint), the next part is given only once the last one is stored, and the next page is
// asked for while the last part of a full page is stored.
import { describe, expect, it } from 'vitest';
import { chunkedPull, type PulledPage } from '../../app/src/data/pull-chunks.js';
import type { SyncCheckpoint } from '../../shared/sync-protocol.js';

type Doc = { id: string; seq: number };
const START: SyncCheckpoint = { id: '', seq: 0 };
const docs = (n: number): Doc[] => Array.from({ length: n }, (_, i) => ({ id: `d${String(i).padStart(5, '0')}`, seq: i + 1 }));

/** The server's pull over `all`: the documents after `from` in (seq, id) order, at most `limit`; the requests it answered. */
function fakeServer(all: Doc[]) {
  const requests: { from: SyncCheckpoint; limit: number }[] = [];
  let failNext = false;
  return {
    requests,
    failNextRequest: () => (failNext = true),
    fetch: async (from: SyncCheckpoint, limit: number): Promise<PulledPage<Doc, SyncCheckpoint>> => {
      requests.push({ from, limit });
      if (failNext) {
        failNext = false;
        throw new Error('network down');
      }
      const documents = all.filter((doc) => doc.seq > from.seq).slice(0, limit);
      const last = documents[documents.length - 1];
      return { documents, checkpoint: last ? { id: last.id, seq: last.seq } : from };
    },
  };
}

const lastOf = (from: SyncCheckpoint, part: readonly Doc[]): SyncCheckpoint => {
  const last = part[part.length - 1];
  return last ? { id: last.id, seq: last.seq } : from;
};

/** Calls the handler as RxDB's pull loop does: from the last checkpoint while parts come full. */
async function pullAll(handler: ReturnType<typeof chunkedPull<Doc, SyncCheckpoint>>, partSize: number, from = START) {
  const parts: { size: number; checkpoint: SyncCheckpoint; caughtUp: boolean }[] = [];
  const received: Doc[] = [];
  for (;;) {
    const part = await handler(from);
    if (part.documents.length === 0) break;
    received.push(...part.documents);
    parts.push({ size: part.documents.length, checkpoint: part.checkpoint, caughtUp: part.caughtUp });
    from = part.checkpoint;
    if (part.documents.length < partSize) break;
  }
  return { parts, received };
}

describe('chunkedPull', () => {
  it('asks the server for pages of 1,000 and hands them on 200 at a time, each ending at its last document', async () => {
    const all = docs(2300);
    const server = fakeServer(all);
    const handler = chunkedPull({ fetch: server.fetch, advance: lastOf, stored: async () => {}, pageSize: 1000, partSize: 200 });
    const { parts, received } = await pullAll(handler, 200);
    expect(received).toEqual(all);
    expect(parts.map((part) => part.size)).toEqual([...Array(11).fill(200), 100]);
    expect(parts.map((part) => part.checkpoint.seq)).toEqual([...Array(11).keys()].map((i) => (i + 1) * 200).concat(2300));
    expect(parts.map((part) => part.caughtUp)).toEqual([...Array(11).fill(false), true]);
    // The server's pages as before: three requests of 1,000 for 2,300 documents.
    expect(server.requests).toEqual([
      { from: START, limit: 1000 },
      { from: { id: 'd00999', seq: 1000 }, limit: 1000 },
      { from: { id: 'd01999', seq: 2000 }, limit: 1000 },
    ]);
  });

  it('a short page whose size is a whole number of parts: RxDB asks again and gets what the server has then', async () => {
    const server = fakeServer(docs(400));
    const handler = chunkedPull({ fetch: server.fetch, advance: lastOf, stored: async () => {}, pageSize: 1000, partSize: 200 });
    const { parts } = await pullAll(handler, 200);
    expect(parts.map((part) => [part.size, part.caughtUp])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(server.requests.map((request) => request.from.seq)).toEqual([0, 400]);
  });

  it('gives the next part only once the last one is stored', async () => {
    const server = fakeServer(docs(1000));
    let storedNow: () => void = () => {};
    let waits = 0;
    const stored = () =>
      new Promise<void>((resolve) => {
        waits += 1;
        storedNow = resolve;
      });
    const handler = chunkedPull({ fetch: server.fetch, advance: lastOf, stored, pageSize: 1000, partSize: 200 });
    const first = handler(START);
    storedNow();
    const part = await first;
    let second: string | null = null;
    void handler(part.checkpoint).then((next) => (second = next.documents[0]!.id));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waits).toBe(2);
    expect(second).toBeNull(); // the first part is not stored yet
    storedNow();
    await expect.poll(() => second).toBe('d00200');
  });

  it('a position it did not hand out (a restart, or other followed topics) is asked of the server from there', async () => {
    const server = fakeServer(docs(1500));
    const handler = chunkedPull({ fetch: server.fetch, advance: lastOf, stored: async () => {}, pageSize: 1000, partSize: 200 });
    await handler(START);
    const resumed = await handler({ id: 'd00099', seq: 100 });
    expect(resumed.documents[0]!.id).toBe('d00100');
    expect(server.requests.map((request) => request.from.seq)).toEqual([0, 100]);
  });

  it('asks for the next page while the last part of a full page is stored, and again after a failed request ahead', async () => {
    const server = fakeServer(docs(2500));
    const handler = chunkedPull({ fetch: server.fetch, advance: lastOf, stored: async () => {}, pageSize: 1000, partSize: 500 });
    let from = START;
    for (let i = 0; i < 2; i++) from = (await handler(from)).checkpoint;
    // The page's last part is handed on: the next page is already asked for.
    expect(server.requests.map((request) => request.from.seq)).toEqual([0, 1000]);
    const next = await handler(from);
    expect(next.documents[0]!.id).toBe('d01000');
    expect(server.requests).toHaveLength(2);

    server.failNextRequest(); // the request made ahead for 2,000 fails
    from = (await handler(next.checkpoint)).checkpoint;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.requests.map((request) => request.from.seq)).toEqual([0, 1000, 2000]);
    const last = await handler(from);
    expect(last.documents.map((doc) => doc.seq)).toEqual(
      docs(2500)
        .slice(2000)
        .map((doc) => doc.seq),
    );
    expect(last.caughtUp).toBe(true);
    expect(server.requests.map((request) => request.from.seq)).toEqual([0, 1000, 2000, 2000]);
  });
});
