// `npm ci && npm start` prints no EBADENGINE warnings: the project's .npmrc keeps npm's warnings out
// of the terminal, and the packages whose declared engines leave out Node 20 are only the known ones
// (RxDB's pinned graphql and z-schema, and two optional binaries), so a new one is a decision, not noise.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };

/** Whether every alternative of an engines range starts above Node 20 ("^22 || >=24"). */
const leavesOutNode20 = (range: string) => range.split('||').every((alt) => /^(>=|\^|~)?\s*v?(2[1-9]|[3-9]\d)\b/.test(alt.trim()));

describe('npm ci on Node 20', () => {
  it('the .npmrc keeps npm warnings out of the terminal', () => {
    const settings = readFileSync('.npmrc', 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.trim().startsWith('#'));
    expect(settings).toContain('loglevel=error');
  });

  it('only the known packages declare an engine that leaves out Node 20', () => {
    const engines = JSON.parse(readFileSync('package.json', 'utf8')).engines as { node: string };
    expect(leavesOutNode20(engines.node)).toBe(false);
    expect(leavesOutNode20('^22.0.0 || ^24.0.0 || >=26.0.0')).toBe(true);
    expect(leavesOutNode20('^12.22.0 || ^14.16.0 || >=17.0.0')).toBe(false);
    const newer = Object.entries(lock.packages)
      .filter(([, pkg]) => pkg.engines?.node && leavesOutNode20(pkg.engines.node))
      .map(([path]) => path.replace(/^node_modules\//, ''))
      .sort();
    expect(newer).toEqual(['@napi-rs/lzma-linux-x64-gnu', 'graphql', 'z-schema', 'z-schema/node_modules/commander']);
  });
});
