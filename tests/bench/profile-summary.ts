// Where a profiled process spent its CPU: a V8 .cpuprofile (node --cpu-prof) summed
// by self time into parts of the stack (Node's HTTP, Hono, SQLite, logging, GC, Crux's own code …)
// and the functions that cost most. Native frames (no script URL) count where they belong: a
// few natives by name (JSON), anything else with the code that called it: V8 samples a better-sqlite3
// statement's step inside the JS function that ran it, so Crux's store code includes its SQLite.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileSummary {
  /** Samples spent working (idle excluded). */
  busySamples: number;
  /** Each part's share of the busy samples, largest first. */
  parts: { part: string; share: number }[];
  /** The costliest functions by self time. */
  top: { fn: string; part: string; share: number }[];
}

const SQLITE_NATIVE = new Set(['all', 'get', 'run', 'iterate', 'prepare', 'exec', 'pragma', 'bind', 'raw', 'pluck', 'transaction']);
const JSON_NATIVE = new Set(['stringify', 'parse']);

function partOfUrl(url: string): string | null {
  if (!url) return null;
  if (url.startsWith('node:')) return "Node's HTTP stack and internals (node:*)";
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  if (pkg === 'hono' || pkg === '@hono/node-server') return 'Hono and @hono/node-server';
  if (pkg === 'better-sqlite3') return 'SQLite (better-sqlite3)';
  if (pkg === 'pino' || pkg === 'sonic-boom' || pkg?.startsWith('pino-')) return 'logging (pino)';
  if (pkg === 'zod') return 'zod';
  if (pkg === 'firebase-admin' || pkg === 'jsonwebtoken' || pkg === 'jose' || pkg === 'jwks-rsa')
    return 'ID token verifier (firebase-admin)';
  if (pkg === 'prom-client') return 'metrics (prom-client)';
  if (pkg) return `other packages (${pkg})`;
  // V8 shows a native call (a better-sqlite3 statement's step) inside the JS function that made it.
  return "Crux's own code, with the SQLite statements it runs";
}

export function summariseProfile(file: string, topN = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partOf = (node: ProfileNode): string => {
    const { functionName, url } = node.callFrame;
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(program)') return 'V8 and native work outside JS ((program))';
    if (url) return partOfUrl(url)!;
    if (SQLITE_NATIVE.has(functionName)) return 'SQLite (better-sqlite3)';
    if (JSON_NATIVE.has(functionName)) return 'JSON (stringify / parse)';
    const up = parent.get(node.id);
    return up === undefined ? 'other native' : partOf(byId.get(up)!);
  };
  const parts = new Map<string, number>();
  const fns = new Map<string, { part: string; hits: number }>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)' || functionName === '(root)') continue;
    busy += hits;
    const part = partOf(node);
    parts.set(part, (parts.get(part) ?? 0) + hits);
    const fn = `${functionName || '(anonymous)'}${url ? ` ${basename(url)}:${lineNumber + 1}` : ''}`;
    const entry = fns.get(fn) ?? { part, hits: 0 };
    entry.hits += hits;
    fns.set(fn, entry);
  }
  const share = (hits: number) => Math.round((hits / Math.max(1, busy)) * 1000) / 10;
  return {
    busySamples: busy,
    // Parts under half a percent are summed into one line.
    parts: [...parts]
      .sort((a, b) => b[1] - a[1])
      .reduce<[string, number][]>((kept, [part, hits]) => {
        if (hits / Math.max(1, busy) >= 0.005) kept.push([part, hits]);
        else if (kept.at(-1)?.[0] === 'the rest') kept.at(-1)![1] += hits;
        else kept.push(['the rest', hits]);
        return kept;
      }, [])
      .map(([part, hits]) => ({ part, share: share(hits) })),
    top: [...fns]
      .sort((a, b) => b[1].hits - a[1].hits)
      .slice(0, topN)
      .map(([fn, { part, hits }]) => ({ fn, part, share: share(hits) })),
  };
}

export function formatSummary(title: string, summary: ProfileSummary): string {
  return [
    `${title} (${summary.busySamples} busy samples)`,
    ...summary.parts.map(({ part, share }) => `  ${String(share).padStart(5)}%  ${part}`),
    '  costliest functions (self time):',
    ...summary.top.map(({ fn, share }) => `  ${String(share).padStart(5)}%  ${fn}`),
  ].join('\n');
}
