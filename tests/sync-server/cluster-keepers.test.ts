// What the primary of SERVER_PROCESSES keeps for its serving processes (sync-server/src/cluster/):
// the rate-limit counts (a stream's open count is given back by the process, or for it when it
// exits), and the write token (first come, first served; the holder is told when another waits; a
// process that exits gives it up).
import { describe, expect, it } from 'vitest';
import { createLimitKeeper } from '../../sync-server/src/cluster/ipc-limits.js';
import type { FromWorker, ToWorker } from '../../sync-server/src/cluster/messages.js';
import { createTokenKeeper } from '../../sync-server/src/cluster/write-token.js';

const open = (id: number): FromWorker => ({ crux: 'open', id, opens: [{ counter: 'ipStreams', key: '10.0.0.1', max: 2 }] });

async function ask(keeper: ReturnType<typeof createLimitKeeper>, owner: number, message: FromWorker): Promise<ToWorker | undefined> {
  let answer: ToWorker | undefined;
  await keeper.answer(owner, message, (reply) => (answer = reply));
  return answer;
}

describe('the primary keeps the counts', () => {
  it('counts streams across processes, and gives back those of a process that exits', async () => {
    const keeper = createLimitKeeper();
    const first = await ask(keeper, 0, open(1));
    expect(first).toMatchObject({ crux: 'opened', id: 1, result: { ok: true } });
    expect(await ask(keeper, 1, open(2))).toMatchObject({ result: { ok: true } });
    // Two open (one through each process): the third is refused wherever it comes from.
    expect(await ask(keeper, 1, open(3))).toEqual({ crux: 'opened', id: 3, result: { ok: false, refused: 0 } });
    // Process 0 closes its stream: one more may open.
    const openId = (first as Extract<ToWorker, { crux: 'opened' }>).result as { ok: true; openId: number };
    await ask(keeper, 0, { crux: 'release', openId: openId.openId });
    expect(await ask(keeper, 0, open(4))).toMatchObject({ result: { ok: true } });
    expect(await ask(keeper, 0, open(5))).toMatchObject({ result: { ok: false } });
    // Process 1 exits: its stream is given back.
    keeper.releaseAll(1);
    expect(await ask(keeper, 0, open(6))).toMatchObject({ result: { ok: true } });
  });

  it('shares token buckets: what one process took, the other cannot', async () => {
    const keeper = createLimitKeeper();
    const take = (id: number): FromWorker => ({
      crux: 'take',
      id,
      takes: [{ bucket: 'userWrites', key: 'ada', rate: { burst: 2, perMinute: 1 }, cost: 1 }],
    });
    expect(await ask(keeper, 0, take(1))).toEqual({ crux: 'took', id: 1, result: { ok: true } });
    expect(await ask(keeper, 1, take(2))).toEqual({ crux: 'took', id: 2, result: { ok: true } });
    expect(await ask(keeper, 0, take(3))).toMatchObject({ crux: 'took', id: 3, result: { ok: false, refused: 0 } });
  });
});

describe('the write token', () => {
  it('goes to the first who asks, the holder hears when another waits, and it passes on in order', () => {
    const sent: string[] = [];
    const keeper = createTokenKeeper((index, message) => sent.push(`${index}:${message.crux}`));
    keeper.want(0);
    expect(sent).toEqual(['0:token']);
    keeper.want(1);
    keeper.want(2);
    expect(sent).toEqual(['0:token', '0:token-wanted']);
    keeper.release(1); // not the holder's: nothing happens
    expect(keeper.holder()).toBe(0);
    keeper.release(0);
    // Process 1 holds it and hears at once that process 2 waits.
    expect(sent.slice(2)).toEqual(['1:token', '1:token-wanted']);
    keeper.gone(1);
    expect(sent.slice(4)).toEqual(['2:token']);
    keeper.release(2);
    expect(keeper.holder()).toBe(null);
  });

  it('a process that exits leaves the queue', () => {
    const sent: string[] = [];
    const keeper = createTokenKeeper((index, message) => sent.push(`${index}:${message.crux}`));
    keeper.want(0);
    keeper.want(1);
    keeper.gone(1);
    keeper.release(0);
    expect(keeper.holder()).toBe(null);
    expect(sent).toEqual(['0:token', '0:token-wanted']);
  });
});
