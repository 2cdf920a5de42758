// Who an @mention names is looked up through the display-name index (case-insensitive,
// users_display_name_nocase) and each named person's own responses, never a pass over all users nor
// over the topic's responses (a big debate holds thousands); "already notified about this response"
// is an index lookup too.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { PARTICIPANTS_NAMED } from '../../sync-server/src/store/sql.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-mention-plan-'));
const db = openDatabase(join(dir, 'crux.sqlite'));
const store = createStore(db); // migrates
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string, params: unknown) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params as never) as { detail: string }[]).map((row) => row.detail);

describe('mention look-ups', () => {
  it('find the named participants through the name index and their own responses', () => {
    const steps = plan(PARTICIPANTS_NAMED.sqlite, { names: '["Ada"]', topic: 't' });
    expect(steps).toContain('SEARCH u USING INDEX users_display_name_nocase (display_name=?)');
    expect(steps.some((step) => /SEARCH r USING INDEX responses_creator/.test(step))).toBe(true);
    expect(steps.join(' | ')).not.toMatch(/SCAN (u|r)\b|responses_topic/);
  });

  it('find who was told about a response through its index', () => {
    const steps = plan('SELECT recipient_uid, type FROM notifications WHERE response_id = ? AND deleted = 0', ['r']);
    expect(steps).toEqual(['SEARCH notifications USING INDEX notifications_response (response_id=?)']);
  });

  it('match names case-insensitively, only among the topic participants', async () => {
    const now = '2026-11-27T20:00:00.000Z';
    let seq = 0;
    const next = async () => ++seq;
    await store.transaction(async () => {
      for (const [uid, name] of [
        ['u-ada', 'Ada Lovelace'],
        ['u-bob', 'Bob'],
        ['u-out', 'Ada Outsider'],
      ] as const)
        await store.users.remember({ uid, name, email: null }, now, next);
      await store.topics.insert({ id: 't1', title: 'T', category: 'Science', creator_uid: 'u-bob', created_at: now, seq: await next() });
      await store.responses.insert({
        id: 'r1',
        topic_id: 't1',
        parent_response_id: null,
        quoted_response_id: null,
        type: 'for',
        content: 'x',
        creator_uid: 'u-ada',
        created_at: now,
        seq: await next(),
      });
    });
    const found = await store.users.participantsNamed('t1', ['ada lovelace', 'BOB', 'Ada Outsider', 'nobody']);
    expect(found.sort((a, b) => a.uid.localeCompare(b.uid))).toEqual([
      { uid: 'u-ada', name: 'Ada Lovelace' },
      { uid: 'u-bob', name: 'Bob' },
    ]);
    expect(await store.users.participantsNamed('t1', [])).toEqual([]);
  });
});
