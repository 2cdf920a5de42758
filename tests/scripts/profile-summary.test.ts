// The bench's profile summary (tests/bench/profile-summary.ts) on a small hand-made
// V8 profile: self time summed by part of the stack, native frames counted where they belong, idle
// left out, and the costliest functions first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summariseProfile } from '../bench/profile-summary';

const dir = mkdtempSync(join(tmpdir(), 'crux-profile-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (id: number, functionName: string, url: string, hitCount: number, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9, columnNumber: 0, scriptId: String(id) },
  hitCount,
  children,
});

describe('summariseProfile', () => {
  it('sums self time by part, leaves idle out, and counts a native frame with its caller or by its name', () => {
    const file = join(dir, 'CPU.cpuprofile');
    const build = 'file:///work/.tmp/bench-build-x/chunk-1.js';
    writeFileSync(
      file,
      JSON.stringify({
        nodes: [
          frame(1, '(root)', '', 0, [2, 3, 4, 5, 8]),
          frame(2, '(idle)', '', 500),
          frame(3, '(garbage collector)', '', 10),
          frame(4, 'writevGeneric', 'node:internal/stream_base_commons', 20, [6]),
          frame(5, 'listTopics', build, 30, [7]),
          frame(6, 'writev', '', 20),
          frame(7, 'stringify', '', 10),
          frame(8, 'json', 'file:///work/main/node_modules/hono/dist/context.js', 10),
        ],
        startTime: 0,
        endTime: 1,
        samples: [],
        timeDeltas: [],
      }),
    );
    const summary = summariseProfile(file, 3);
    expect(summary.busySamples).toBe(100);
    expect(summary.parts).toEqual([
      { part: "Node's HTTP stack and internals (node:*)", share: 40 },
      { part: "Crux's own code, with the SQLite statements it runs", share: 30 },
      { part: 'garbage collection', share: 10 },
      { part: 'JSON (stringify / parse)', share: 10 },
      { part: 'Hono and @hono/node-server', share: 10 },
    ]);
    expect(summary.top.map(({ fn, share }) => [fn, share])).toEqual([
      ['listTopics chunk-1.js:10', 30],
      ['writevGeneric stream_base_commons:10', 20],
      ['writev', 20],
    ]);
  });
});
