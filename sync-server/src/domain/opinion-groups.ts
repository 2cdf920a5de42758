// Opinion groups on the server: a topic's summary is computed from its votes
// (shared/rules/opinion-groups.ts) by a background job, never while a request waits, and stored on
// the topic so it replicates with it (TopicDoc.opinion_groups). Only the summary leaves: who voted
// what and who is in which group stay in this function's memory.
//
// When: a vote or a removed response marks the topic (the change feed says which; a new response has
// no votes, and an unvoted response is in no one's row, so it changes nothing), and a
// starting job marks the topics voted on in the last day (a mark held by a stopped process is not
// lost); the job looks at marked topics every `tickMs` and recomputes a topic at most once per `minGapMs`
// (OPINION_GROUPS.RECOMPUTE_MS, 3 minutes by default). The gap is also a privacy measure: a summary
// that moved right after one known vote would hint at that voter's group. With several server
// processes (PostgreSQL), each hears every change and may compute; the result is deterministic and
// written only when it differs, so the second writes nothing.
import { OPINION_GROUPS, opinionGroups } from '../../../shared/rules/opinion-groups.js';
import { publish, type DomainContext } from './context.js';

/** Recomputes one topic's summary now; true when it changed (and was stored with a new seq). */
export async function refreshOpinionGroups(ctx: DomainContext, topicId: string): Promise<boolean> {
  const votes = await ctx.store.groups.votes(topicId);
  const summary = JSON.stringify(opinionGroups(votes, await ctx.store.groups.removed(topicId)));
  const changed = await ctx.store.transaction(() => ctx.store.groups.save(topicId, summary, ctx.store.nextSeq));
  if (changed) publish(ctx, [{ collection: 'topics' }]);
  return changed;
}

/** How far back a starting job looks for votes (its marks of a previous process are gone). */
export const STARTUP_LOOKBACK_MS = 24 * 60 * 60 * 1000;

export interface GroupingJobOptions {
  /** How often marked topics are looked at (ms). */
  tickMs?: number;
  /** A topic is recomputed at most once per this many ms. */
  minGapMs?: number;
  log?: (line: string) => void;
}

export interface GroupingJob {
  /** Recomputes every marked topic whose gap is over (the timer calls it; tests may too). */
  runDue(): Promise<number>;
  stop(): Promise<void>;
}

export function startGroupingJob(ctx: DomainContext, options: GroupingJobOptions = {}): GroupingJob {
  const tickMs = options.tickMs ?? 10_000;
  const minGapMs = options.minGapMs ?? OPINION_GROUPS.RECOMPUTE_MS;
  const marked = new Set<string>();
  const lastRun = new Map<string, number>();
  const unsubscribe = ctx.changes.subscribe((changes) => {
    for (const change of changes) if (change.collection === 'responses' && !change.votesKept) marked.add(change.topicId);
  });
  let running: Promise<number> | null = null;
  const since = new Date(ctx.clock().getTime() - STARTUP_LOOKBACK_MS).toISOString();
  const startup = ctx.store.groups.votedSince(since).then(
    (topicIds) => topicIds.forEach((topicId) => marked.add(topicId)),
    (error: unknown) => options.log?.(`opinion groups: startup scan failed: ${error instanceof Error ? error.message : String(error)}`),
  );

  async function runDue(): Promise<number> {
    await startup;
    let done = 0;
    const now = ctx.clock().getTime();
    for (const topicId of [...marked]) {
      if (now - (lastRun.get(topicId) ?? -Infinity) < minGapMs) continue;
      marked.delete(topicId);
      lastRun.set(topicId, now);
      try {
        await refreshOpinionGroups(ctx, topicId);
        done++;
      } catch (error) {
        options.log?.(`opinion groups: topic ${topicId} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      // One topic at a time, and the event loop's other work between two.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Forget old gaps so the map does not grow with every topic ever voted on.
    for (const [topicId, at] of lastRun) if (now - at >= minGapMs && !marked.has(topicId)) lastRun.delete(topicId);
    return done;
  }
  const tick = () => {
    if (!running) running = runDue().finally(() => (running = null));
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();
  return {
    runDue: () => running ?? (running = runDue().finally(() => (running = null))),
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await running;
    },
  };
}
