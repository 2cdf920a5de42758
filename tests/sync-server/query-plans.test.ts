// DESIGN.md §4: the hot score is stored and indexed so that every list is an
// index scan, never a sort of the whole table.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { SORTS } from '../../shared/constants.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import { topicStances } from '../../sync-server/src/domain/common-ground.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser, userProfile } from '../../sync-server/src/domain/users.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-plan-'));
const db = openDatabase(join(dir, 'crux.sqlite'));
const store = createStore(db);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('topic list query plans', () => {
  it.each(
    SORTS.flatMap(
      (sort) =>
        [
          [sort, false],
          [sort, true],
        ] as const,
    ),
  )('%s (by category: %s) walks an index', async (sort, byCategory) => {
    const plan = await store.topics.listPlan(sort, byCategory);
    const topicsStep = plan.find((step) => /\bt\b/.test(step) && /topics|USING INDEX/.test(step))!;
    expect(topicsStep).toMatch(byCategory ? `topics_category_${sort}` : `topics_${sort}`);
    expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
  });
});

// Issue 25 #5: a user's page and a topic's stance totals cost the same however much the user wrote
// or the topic holds. Every statement the call runs is recorded (with its arguments) and explained:
// a user's newest topics and responses are index range scans in order (no sort of all they wrote),
// and the stance totals read the topic's stored counts (no pass over its responses).
describe("a user's page and a topic's stance totals are O(1) in its size", () => {
  type Statement = ReturnType<typeof db.prepare>;
  async function statementsOf(call: () => Promise<unknown>): Promise<{ source: string; args: unknown[] }[]> {
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<
      'get' | 'all' | 'run' | 'iterate',
      (...args: unknown[]) => unknown
    >;
    const ran: { source: string; args: unknown[] }[] = [];
    const saved = { get: proto.get, all: proto.all, run: proto.run, iterate: proto.iterate };
    for (const name of ['get', 'all', 'run', 'iterate'] as const) {
      proto[name] = function (this: Statement, ...args: unknown[]) {
        ran.push({ source: this.source, args });
        return saved[name].apply(this, args);
      };
    }
    try {
      await call();
    } finally {
      Object.assign(proto, saved);
    }
    return ran;
  }
  const plansOf = (ran: { source: string; args: unknown[] }[]) =>
    ran.map(({ source, args }) => ({
      source,
      plan: (db.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...args) as { detail: string }[]).map((step) => step.detail),
    }));

  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  const ctx: DomainContext = {
    store,
    clock: () => new Date((ms += 1000)),
    newId: () => `plan-${++ids}`,
    changes: createChangeFeed(),
  };
  const ada = { uid: 'ada', name: 'Ada', email: null };
  let topicId = '';

  it('seeds a prolific user', async () => {
    await rememberUser(ctx, ada);
    for (let i = 0; i < 5; i++) topicId = (await createTopic(ctx, ada, { title: `Plan topic ${i}`, categories: ['Science'] })).id;
    for (let i = 0; i < 120; i++) {
      await createResponse(ctx, ada, { topic_id: topicId, type: (['for', 'against', 'neutral'] as const)[i % 3]!, content: `Said ${i}` });
    }
    db.exec('ANALYZE');
  });

  it('GET /api/users/{uid}: the newest topics and responses are index range scans, nothing is sorted', async () => {
    const plans = plansOf(await statementsOf(() => userProfile(ctx, 'ada')));
    const all = plans.flatMap(({ plan }) => plan);
    expect(all.join(' | ')).not.toMatch(/TEMP B-TREE/);
    expect(all.filter((step) => /^SCAN (r|t|responses|topics)\b/.test(step))).toEqual([]);
    expect(all.join(' | ')).toMatch(/responses_creator_new/);
    expect(all.join(' | ')).toMatch(/topics_creator_new/);
  });

  it('GET /api/topics/{id}/stances: reads no response row', async () => {
    const plans = plansOf(await statementsOf(() => topicStances(ctx, topicId)));
    expect(plans.length).toBeGreaterThan(0);
    for (const { source, plan } of plans) {
      expect(source).not.toMatch(/\bFROM responses\b/);
      expect(plan.join(' | ')).not.toMatch(/\bresponses\b/);
    }
  });
});
