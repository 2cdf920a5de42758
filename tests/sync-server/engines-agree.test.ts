// The two engines answer alike. A SQLite site (the demo debates) is copied to
// PostgreSQL with the copy tool (npm run db:copy-to-pg), and the same app over each store then
// answers every read of the REST API and of the sync protocol with the same bytes; after the
// same writes through both (create, reply, quote, vote and unvote, stance, edit, delete, mark read,
// preferences, a sync push into every collection with a refused row in each),
// the pulls still agree byte for byte, change numbers included. Also: the copy refuses a target
// that already holds a site.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../sync-server/src/auth/verifier.js';
import { createApp } from '../../sync-server/src/app.js';
import { seedDemo } from '../../sync-server/src/seed/demo.js';
import { NO_MODERATION_LIMITS } from '../../sync-server/src/domain/limits.js';
import { openDatabase, type Db } from '../../sync-server/src/store/sqlite/connection.js';
import { copySqliteToPostgres, TargetNotEmptyError } from '../../sync-server/src/store/pg/copy-from-sqlite.js';
import { TABLES } from '../../sync-server/src/store/rows.js';
import { createPgStore } from '../../sync-server/src/store/pg/store.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import type { Store } from '../../sync-server/src/store/types.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

const USERS: Record<string, AuthUser> = {
  ada: { uid: 'engine-ada', name: 'Ada', email: 'ada@example.com' },
  bob: { uid: 'engine-bob', name: 'Bob', email: 'bob@example.com' },
  mod: { uid: 'engine-mod', name: 'Mod', email: 'mod@example.com', role: 'moderator' },
};
const verifier = {
  verify: (token: string) => (USERS[token] ? Promise.resolve(USERS[token]) : Promise.reject(new Error('unknown token'))),
};

let postgres: Postgres;
let dir: string;
let sqliteDb: Db;
let sqlite: Store;
let postgresStore: Store;
type App = ReturnType<typeof createApp>['app'];
let apps: { sqlite: App; postgres: App };

/** One app per store, with the same clock and the same ids, as two servers would answer. */
function appsOver(stores: { sqlite: Store; postgres: Store }) {
  const make = (store: Store) => {
    let ms = Date.UTC(2026, 5, 1);
    let ids = 0;
    return createApp({
      store,
      verifier,
      clock: () => new Date((ms += 1000)),
      newId: () => `engine-${String(++ids).padStart(5, '0')}`,
      log: () => {},
      rateLimits: { enabled: false } as never,
      moderation: NO_MODERATION_LIMITS,
    }).app;
  };
  return { sqlite: make(stores.sqlite), postgres: make(stores.postgres) };
}

async function both(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const init = () => ({
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const [a, b] = [await apps.sqlite.request(path, init()), await apps.postgres.request(path, init())];
  return { sqlite: { status: a.status, text: await a.text() }, postgres: { status: b.status, text: await b.text() } };
}

/** The same answer, byte for byte, from both engines; the parsed body. */
async function same(path: string, options: { method?: string; token?: string; body?: unknown } = {}) {
  const answers = await both(options.method ?? 'GET', path, options);
  expect(answers.postgres, `${options.method ?? 'GET'} ${path}`).toEqual(answers.sqlite);
  return answers.sqlite.text ? (JSON.parse(answers.sqlite.text) as unknown) : null;
}

/** A sync push through both apps, the same answer from each; the ids of the rows it refused. */
async function pushBoth(collection: string, token: string, rows: Array<Record<string, unknown>>) {
  const body = rows.map((row) => ({ newDocumentState: { _deleted: false, ...row } }));
  const answer = (await same(`/api/sync/${collection}/push`, { method: 'POST', token, body })) as { rejected: Array<{ id: string }> };
  return answer.rejected.map((row) => row.id);
}

beforeAll(async () => {
  postgres = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'crux-engines-'));
  sqliteDb = openDatabase(join(dir, 'crux.sqlite'));
  sqlite = createStore(sqliteDb);
  // The demo site, written through the domain as `npm start` seeds it.
  const seeding = createApp({ store: sqlite, verifier, clock: () => new Date(Date.UTC(2026, 4, 1)), log: () => {} });
  await seedDemo(seeding.ctx);
  await copySqliteToPostgres(sqliteDb, postgres.url);
  postgresStore = await createPgStore({ connectionString: postgres.url, max: 4 });
  apps = appsOver({ sqlite, postgres: postgresStore });
}, 120_000);

afterAll(async () => {
  await postgresStore?.close();
  await sqlite?.close();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Listed {
  id: string;
}

describe('SQLite and PostgreSQL answer alike', () => {
  it('every read of the REST API, on the copied demo site', async () => {
    const topics = (await same('/api/topics?sort=new&limit=100')) as Listed[];
    expect(topics.length).toBeGreaterThan(3);
    for (const sort of ['hot', 'new', 'top']) {
      await same(`/api/topics?sort=${sort}`);
      await same(`/api/topics?sort=${sort}&limit=2&offset=1`);
      await same(`/api/topics?sort=${sort}&category=Science`);
      for (const search of ['the', 'cit', 'free will', 'nuclear energy', 'zzz'])
        await same(`/api/topics?sort=${sort}&search=${encodeURIComponent(search)}`);
    }
    await same('/api/topics/categories');
    for (const topic of topics) {
      await same(`/api/topics/${topic.id}`);
      await same(`/api/topics/${topic.id}/stances`);
      await same(`/api/topics/${topic.id}/common-ground`);
      const roots = (await same(`/api/responses?topic_id=${topic.id}`)) as Listed[];
      await same(`/api/responses?topic_id=${topic.id}&limit=1`);
      await same(`/api/responses/mappings?topic_id=${topic.id}`);
      for (const q of ['the', 'evid', 'cost']) await same(`/api/responses/search?topic_id=${topic.id}&q=${q}`);
      for (const root of roots) {
        await same(`/api/responses/${root.id}`);
        await same(`/api/responses?parent_id=${root.id}`);
      }
    }
    const leaders = (await same('/api/users/leaderboard')) as { uid: string }[];
    await same('/api/users/leaderboard?include=persuasion');
    for (const { uid } of leaders) await same(`/api/users/${uid}`);
    const sources = (await same('/api/sources?limit=500')) as Listed[];
    expect(sources.length).toBeGreaterThan(0);
    await same('/api/sources?include=citations');
    await same('/api/sources?limit=2&offset=1');
    for (const filter of ['org', 'WHO', '%', 'zzz']) await same(`/api/sources?filter=${encodeURIComponent(filter)}`);
    for (const q of ['report', 'https', 'zzz']) await same(`/api/sources?q=${q}`);
    for (const source of sources) await same(`/api/sources/${source.id}/responses`);
    // Errors too.
    await same('/api/topics/missing');
    await same('/api/users/nobody');
  });

  it('every pull of the sync protocol, then the same writes through both, change numbers included', async () => {
    const pullAll = async () => {
      const topics = (await same('/api/sync/topics/pull?limit=1000')) as { documents: Listed[] };
      const checkpoint = { topics: Object.fromEntries(topics.documents.map((doc) => [doc.id, { id: '', seq: 0 }])) };
      await same('/api/sync/responses/pull', { method: 'POST', body: { checkpoint, limit: 1000 } });
      for (const doc of topics.documents) {
        await same(`/api/sync/responses/pull?topic_id=${doc.id}&limit=3`);
        await same(`/api/sync/responses/pull?topic_id=${doc.id}&limit=1000`);
      }
      for (const token of ['ada', 'bob']) {
        for (const collection of ['votes', 'notifications', 'profile', 'stances'])
          await same(`/api/sync/${collection}/pull?limit=1000`, { token });
      }
      return topics.documents;
    };
    const before = await pullAll();

    // The same writes through both apps: REST and sync pushes, with a row refused in the middle.
    const topic = (await same('/api/topics', {
      method: 'POST',
      token: 'ada',
      body: { title: 'Same on both engines?', categories: ['Technology'] },
    })) as Listed;
    const root = (await same('/api/responses', {
      method: 'POST',
      token: 'bob',
      body: {
        topic_id: topic.id,
        type: 'against',
        content: 'Only if the answers match',
        sources: [{ url: 'https://example.org/engines', name: 'Engines' }],
      },
    })) as Listed;
    await same('/api/responses', {
      method: 'POST',
      token: 'ada',
      body: { parent_response_id: root.id, quoted_response_id: root.id, type: 'for', content: 'They do, byte for byte' },
    });
    await same('/api/upvotes', { method: 'POST', token: 'ada', body: { target_type: 'response', target_id: root.id } });
    await same(`/api/topics/${topic.id}/stance`, { method: 'PUT', token: 'bob', body: { stance: 'disagree' } });
    await same(`/api/topics/${topic.id}/stance`, { method: 'PUT', token: 'bob', body: { stance: 'agree', credits: [] } });
    await same(`/api/responses/${root.id}`, { method: 'PUT', token: 'bob', body: { content: 'Only if the answers match (edited)' } });
    await same('/api/sync/topics/push', {
      method: 'POST',
      token: 'ada',
      body: [
        { newDocumentState: { id: 'engine-push-1', title: 'Pushed first', category: 'Science', _deleted: false } },
        { newDocumentState: { id: 'engine-push-2', title: 'Refused', category: 'Not a category', _deleted: false } },
        { newDocumentState: { id: 'engine-push-3', title: 'Pushed after a refusal', category: 'Science', _deleted: false } },
      ],
    });
    const notes = (await same('/api/notifications/user/engine-bob', { token: 'bob' })) as Listed[];
    expect(notes.length).toBeGreaterThan(0);
    await same(`/api/notifications/${notes[0]!.id}/read`, { method: 'PUT', token: 'bob' });
    await same('/api/notifications/missing/read', { method: 'PUT', token: 'bob' });
    // Points and preferences, the caller's stance, and an upvote taken back.
    for (const uid of ['engine-ada', 'engine-bob', 'nobody']) await same(`/api/users/${uid}/score`);
    await same('/api/users/preferences', { token: 'ada' });
    await same('/api/users/preferences', { method: 'POST', token: 'ada', body: { receive_weekly_summary: false } });
    await same('/api/users/preferences', { method: 'POST', token: 'ada', body: { receive_weekly_summary: 'no' } });
    await same('/api/users/preferences', { token: 'ada' });
    for (const token of ['ada', 'bob']) await same(`/api/topics/${topic.id}/stance`, { token });
    await same('/api/upvotes', { method: 'DELETE', token: 'ada', body: { target_type: 'response', target_id: root.id } });
    await same('/api/upvotes', { method: 'DELETE', token: 'ada', body: { target_type: 'response', target_id: 'missing' } });
    await same('/api/users/engine-bob/score');
    // A sync push into every other collection, each with a refused row among rows that land.
    const response = (content: string, extra: Record<string, unknown> = {}) => ({
      topic_id: topic.id,
      parent_response_id: null,
      quoted_response_id: null,
      type: 'neutral',
      content,
      sources: [],
      ...extra,
    });
    expect(
      await pushBoth('responses', 'ada', [
        {
          id: 'engine-push-r1',
          ...response('Pushed from a device', { sources: [{ url: 'https://example.org/pushed', name: 'Pushed', description: 'Why' }] }),
        },
        { id: 'engine-push-r2', ...response('No such topic', { topic_id: 'missing' }) },
        { id: 'engine-push-r3', ...response('A reply pushed too', { parent_response_id: 'engine-push-r1', type: 'against' }) },
      ]),
    ).toEqual(['engine-push-r2']);
    const vote = (type: string, id: string, upvoted: boolean) => ({ id: `${type}_${id}`, target_type: type, target_id: id, upvoted });
    expect(
      await pushBoth('votes', 'bob', [
        vote('response', 'engine-push-r1', true),
        vote('response', 'missing', true),
        vote('topic', topic.id, true),
      ]),
    ).toEqual(['response_missing']);
    expect(await pushBoth('votes', 'bob', [vote('topic', topic.id, false)])).toEqual([]);
    const adaNotes = (await same('/api/notifications/user/engine-ada', { token: 'ada' })) as Listed[];
    expect(adaNotes.length).toBeGreaterThan(0);
    expect(
      await pushBoth('notifications', 'ada', [
        { id: adaNotes[0]!.id, is_read: true },
        { id: 'missing', is_read: true },
      ]),
    ).toEqual(['missing']);
    expect(
      await pushBoth('profile', 'bob', [
        { id: 'engine-bob', receive_weekly_summary: false },
        { id: 'engine-ada', receive_weekly_summary: false },
      ]),
    ).toEqual(['engine-ada']);
    expect(
      await pushBoth('stances', 'ada', [
        { id: topic.id, stance: 'agree', first_stance: 'unsure', credits: [] },
        { id: 'engine-push-1', stance: 'not a stance', credits: [] },
        { id: 'engine-push-3', stance: 'disagree', first_stance: null, credits: [] },
      ]),
    ).toEqual(['engine-push-1']);
    expect(
      await pushBoth('responses', 'ada', [
        { id: 'engine-push-r1', ...response('Pushed from a device (edited)') },
        {
          id: 'engine-push-r3',
          ...response('A reply pushed too', { parent_response_id: 'engine-push-r1', type: 'against' }),
          _deleted: true,
        },
      ]),
    ).toEqual([]);
    for (const uid of ['engine-ada', 'engine-bob']) await same(`/api/users/${uid}/score`);
    await same(`/api/topics/${before[0]!.id}`, { method: 'DELETE', token: 'ada' });
    await same(`/api/responses/${root.id}`, { method: 'DELETE', token: 'bob' });
    await pullAll();
  });

  it('the copy knows every table of the schema (store/rows.ts TABLES), and which PostgreSQL numbers', async () => {
    // SQLite's own bookkeeping aside: the seq counter (meta) and the FTS5 index tables.
    const schema = (sqliteDb.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((table) => table.name)
      .filter((name) => name !== 'meta' && !name.includes('_fts') && !name.startsWith('sqlite_'));
    expect(Object.keys(TABLES).sort()).toEqual(schema.sort());
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'pk' AND is_identity = 'YES'",
      );
      const numbered = Object.entries(TABLES)
        .filter(([, { identity }]) => identity)
        .map(([table]) => table);
      expect(numbered.sort()).toEqual(
        rows
          .map((row) => row.table_name)
          .filter((name) => !name.includes('_fts'))
          .sort(),
      );
    } finally {
      await client.end();
    }
  });

  it("reports, the queue, removal and restore, the log and the reporter's pull, alike", async () => {
    const topics = (await same('/api/topics?sort=new&limit=100')) as Array<Listed & { creator_uid: string }>;
    const topic = topics.find((candidate) => !candidate.creator_uid.startsWith('engine-'))!;
    const [root] = (await same(`/api/responses?topic_id=${topic.id}`)) as Listed[];
    await same('/api/reports', { method: 'POST', token: 'bob', body: { target_type: 'topic', target_id: topic.id, reason: 'spam' } });
    await same('/api/reports', {
      method: 'POST',
      token: 'bob',
      body: { target_type: 'response', target_id: root!.id, reason: 'hate', note: 'x' },
    });
    await same('/api/reports', { method: 'POST', token: 'ada', body: { target_type: 'response', target_id: root!.id, reason: 'other' } });
    expect(((await same('/api/moderation/reports', { token: 'mod' })) as { items: unknown[] }).items).toHaveLength(2);
    await same('/api/moderation/actions', {
      method: 'POST',
      token: 'mod',
      body: { action: 'remove', target_type: 'response', target_id: root!.id, reason: 'Rude' },
    });
    await same(`/api/responses?topic_id=${topic.id}`);
    await same(`/api/responses/search?topic_id=${topic.id}&q=the`);
    await same(`/api/sync/responses/pull?topic_id=${topic.id}&limit=1000`);
    await same(`/api/moderation/original/response/${root!.id}`, { token: 'mod' });
    await same('/api/moderation/reports?status=handled', { token: 'mod' });
    await same('/api/moderation/actions', {
      method: 'POST',
      token: 'mod',
      body: { action: 'lock', target_type: 'topic', target_id: topic.id, reason: 'Heated' },
    });
    await same('/api/moderation/actions', {
      method: 'POST',
      token: 'mod',
      body: { action: 'restore', target_type: 'response', target_id: root!.id, reason: 'Ok' },
    });
    await same(`/api/responses?topic_id=${topic.id}`);
    await same(`/api/responses/search?topic_id=${topic.id}&q=the`);
    await same('/api/responses', { method: 'POST', token: 'bob', body: { topic_id: topic.id, type: 'for', content: 'Locked out' } });
    await same('/api/moderation/actions', {
      method: 'POST',
      token: 'mod',
      body: { action: 'suspend', target_type: 'user', target_id: 'engine-ada', reason: 'Spam', days: 2 },
    });
    await same('/api/topics', { method: 'POST', token: 'ada', body: { title: 'Suspended', categories: ['Science'] } });
    expect(((await same('/api/moderation/log', { token: 'mod' })) as { total: number }).total).toBe(4);
    await same('/api/sync/reports/pull?limit=100', { token: 'bob' });
    await same('/api/sync/profile/pull?limit=10', { token: 'ada' });
    await same('/api/notifications/user/' + topic.creator_uid, { token: 'mod' });
  });

  it('the copy refuses a database that already holds a site', async () => {
    await expect(copySqliteToPostgres(sqliteDb, postgres.url)).rejects.toBeInstanceOf(TargetNotEmptyError);
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      // Nothing was added by the refused copy: as many topics as the apps report.
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM topics');
      expect(Number(rows[0]!.n)).toBe(((await same('/api/sync/topics/pull?limit=1000')) as { documents: unknown[] }).documents.length);
    } finally {
      await client.end();
    }
  });
});
