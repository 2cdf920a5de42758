// DESIGN.md §4: the hot score is stored and indexed so that every list is an
// index scan, never a sort of the whole table.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { SORTS } from '../../shared/constants.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-plan-'));
const store = createStore(openDatabase(join(dir, 'crux.sqlite')));
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
