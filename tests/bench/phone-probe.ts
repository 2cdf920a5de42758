// What the phone bench (phone.ts) reads in the page: an init script that notes when the first topic
// row is drawn and every long task (PerformanceObserver 'longtask'), and the reading of it. A long
// task is counted as the sync's when it starts while a pulled page is being stored: from the end of
// a sync pull's response (Resource Timing, `/api/sync/<collection>/…`) to the start of that
// collection's next pull, or one second after its last. The screens' own work on what a page brought
// (their queries re-run) falls there too: it is work the sync caused.
import type { Page } from 'playwright-core';

export const PHONE_PROBE = `
  window.__phone = { firstRowInDom: null, firstRowFrame: null, longTasks: [] };
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__phone.longTasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  try { performance.setResourceTimingBufferSize(100000); } catch {}
  new MutationObserver(() => {
    const p = window.__phone;
    if (p.firstRowInDom === null && document.querySelector('[data-testid="topic-row"]')) {
      p.firstRowInDom = performance.now();
      requestAnimationFrame(() => setTimeout(() => (p.firstRowFrame = performance.now()), 0));
    }
  }).observe(document, { childList: true, subtree: true });
`;

export interface ProbeReading {
  /** Drawn: the first contentful paint when the row was in the DOM by then, else the frame after it. */
  firstRowMs: number;
  /** The first moment after the first row followed by 5 s without a long task (or the end of the last one seen). */
  interactiveMs: number;
  longestTaskMs: number;
  longestSyncTaskMs: number;
  /** The longest few of them, [start, duration] in ms from the page's start, for the log. */
  longestSyncTasks: [number, number][];
  longTasks: number;
  longTaskTotalMs: number;
}

type Span = [start: number, end: number];

/** When pulled pages were being stored, per the rule above. */
export function syncSpans(pulls: { collection: string; start: number; end: number }[]): Span[] {
  const spans: Span[] = [];
  const byCollection = new Map<string, { start: number; end: number }[]>();
  for (const pull of pulls) byCollection.set(pull.collection, [...(byCollection.get(pull.collection) ?? []), pull]);
  for (const list of byCollection.values()) {
    list.sort((a, b) => a.start - b.start);
    list.forEach((pull, i) => spans.push([pull.end, list[i + 1]?.start ?? pull.end + 1000]));
  }
  return spans;
}

export function interactiveAfter(firstRow: number, tasks: [number, number][], quietMs = 5000): number {
  let at = firstRow;
  for (const [start, duration] of [...tasks].sort((a, b) => a[0] - b[0])) {
    if (start + duration <= at) continue;
    if (start - at >= quietMs) break;
    at = Math.max(at, start + duration);
  }
  return at;
}

export async function readProbe(page: Page): Promise<ProbeReading> {
  const raw = await page.evaluate(() => {
    const p = (
      window as unknown as { __phone: { firstRowInDom: number | null; firstRowFrame: number | null; longTasks: [number, number][] } }
    ).__phone;
    const pulls = performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => /\/api\/sync\/[^/]+\/pull/.test(e.name))
      .map((e) => ({ collection: /\/api\/sync\/([^/]+)\//.exec(e.name)![1]!, start: e.startTime, end: e.responseEnd }));
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    return { ...p, fcp, pulls };
  });
  const firstRowInDom = raw.firstRowInDom ?? NaN;
  const firstRowMs = raw.fcp !== undefined && raw.fcp >= firstRowInDom ? raw.fcp : (raw.firstRowFrame ?? firstRowInDom);
  const spans = syncSpans(raw.pulls);
  const fromSync = raw.longTasks.filter(([start]) => spans.some(([from, to]) => start >= from && start < to));
  return {
    firstRowMs,
    interactiveMs: interactiveAfter(firstRowMs, raw.longTasks),
    longestTaskMs: Math.max(0, ...raw.longTasks.map(([, d]) => d)),
    longestSyncTaskMs: Math.max(0, ...fromSync.map(([, d]) => d)),
    longestSyncTasks: [...fromSync].sort((a, b) => b[1] - a[1]).slice(0, 5),
    longTasks: raw.longTasks.length,
    longTaskTotalMs: raw.longTasks.reduce((sum, [, d]) => sum + d, 0),
  };
}
