// The rules the app and the server both apply, pinned by one table each that
// runs the server's way (real SQLite: the FTS5 tokenizer of the migrations, SQL
// ORDER BY) and the app's way (the offline matcher, the JS comparator) side by side.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ftsQuery, titleMatcher } from '../../shared/rules/search-words.js';
import { comparatorFor, NOTIFICATION_ORDER, orderBySql, RESPONSE_ORDER, TOPIC_ORDERS, type Order } from '../../shared/rules/sort-order.js';
import { parseVoteDocId, voteDocId } from '../../shared/rules/vote-id.js';
import { assertOwner, assertParentInTopic } from '../../shared/rules/ownership.js';
import { CruxError } from '../../shared/errors.js';
import { MSG } from '../../shared/messages.js';

// The tokenizer the server's topics_fts really uses, read from its migration.
const migration = readFileSync(new URL('../../sync-server/src/store/sqlite/migrations/001-init.sql', import.meta.url), 'utf8');
const tokenizer = /CREATE VIRTUAL TABLE topics_fts USING fts5 \(.*tokenize = '([^']+)'\)/.exec(migration)?.[1];

const TITLES = [
  'E-mail is dead',
  'Self-driving cars should be banned',
  'snake_case or camelCase?',
  'Café culture',
  'Is the Óscar worth it',
  'İstanbul or Ankara',
  'Straße names',
  'ΣΊΣΥΦΟΣ and the boulder',
  'हिन्दी भाषा',
  '日本語 の 議論',
  'ｆｕｌｌｗｉｄｔｈ text',
  'Climate policy now',
  'x² grows faster',
];

describe('topic search: the server (FTS5) and the app (offline) find the same titles', () => {
  it('reads the tokenizer from the migration', () => {
    expect(tokenizer).toBe('unicode61 remove_diacritics 2');
  });
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5 (title, tokenize = '${tokenizer}')`);
  const insert = db.prepare('INSERT INTO t (title) VALUES (?)');
  for (const title of TITLES) insert.run(title);
  const server = (text: string) => {
    const match = ftsQuery(text);
    if (match === null) return [];
    return (db.prepare('SELECT title FROM t WHERE t MATCH ? ORDER BY rowid').all(match) as { title: string }[]).map((r) => r.title);
  };
  const app = (text: string) => {
    const matches = titleMatcher(text);
    return matches ? TITLES.filter(matches) : [];
  };

  it.each([
    ['mail', ['E-mail is dead']],
    ['e mail', ['E-mail is dead']],
    ['driving', ['Self-driving cars should be banned']],
    ['case', ['snake_case or camelCase?']],
    ['snake_case', ['snake_case or camelCase?']],
    ['camel', ['snake_case or camelCase?']],
    ['cafe', ['Café culture']],
    ['CAFÉ', ['Café culture']],
    ['oscar', ['Is the Óscar worth it']],
    ['istanbul', ['İstanbul or Ankara']],
    ['straße', ['Straße names']],
    ['strasse', []],
    ['σίσυφος', ['ΣΊΣΥΦΟΣ and the boulder']],
    ['हिन्दी', ['हिन्दी भाषा']],
    ['日本語', ['日本語 の 議論']],
    ['ｆｕｌｌ', ['ｆｕｌｌｗｉｄｔｈ text']],
    ['fullwidth', []],
    ['clim pol', ['Climate policy now']],
    ['POLICY clim', ['Climate policy now']],
    ['mate', []],
    ['x2', []],
    ['"quoted" OR', []],
    ['or', ['snake_case or camelCase?', 'İstanbul or Ankara']],
    ['  "" ', []],
    ['', []],
  ])('%j', (text, expected) => {
    expect(server(text)).toEqual(expected);
    expect(app(text)).toEqual(expected);
  });
});

describe('list orders: SQL ORDER BY and the app comparator agree', () => {
  const rows = [
    { id: 'a', hot: 5, score: 3, created_at: '2026-01-02T00:00:00.000Z' },
    { id: 'B', hot: 5, score: 3, created_at: '2026-01-02T00:00:00.000Z' },
    { id: 'c', hot: 9, score: 1, created_at: '2026-01-01T00:00:00.000Z' },
    { id: '0', hot: 1, score: 3, created_at: '2026-01-03T00:00:00.000Z' },
    { id: 'Z-1', hot: 9, score: 7, created_at: '2026-01-01T00:00:00.000Z' },
    { id: 'z_1', hot: 0, score: 0, created_at: '2026-01-02T00:00:00.000Z' },
  ];
  const db = new Database(':memory:');
  db.exec('CREATE TABLE r (id TEXT PRIMARY KEY, hot REAL, score INTEGER, created_at TEXT)');
  const insert = db.prepare('INSERT INTO r VALUES (@id, @hot, @score, @created_at)');
  for (const row of rows) insert.run(row);
  const sql = (order: Order<string>) =>
    (db.prepare(`SELECT id FROM r ORDER BY ${orderBySql(order, 'r')}`).all() as { id: string }[]).map((r) => r.id);
  const js = (order: Order<'id' | 'hot' | 'score' | 'created_at'>) => [...rows].sort(comparatorFor(order)).map((r) => r.id);

  it.each([
    ['hot', TOPIC_ORDERS.hot, ['Z-1', 'c', 'B', 'a', '0', 'z_1']],
    ['new', TOPIC_ORDERS.new, ['0', 'z_1', 'a', 'B', 'c', 'Z-1']],
    ['top', TOPIC_ORDERS.top, ['Z-1', '0', 'a', 'B', 'c', 'z_1']],
    ['responses', RESPONSE_ORDER, ['Z-1', 'c', 'B', 'a', 'z_1', '0']],
    ['notifications', NOTIFICATION_ORDER, ['0', 'z_1', 'a', 'B', 'c', 'Z-1']],
  ] as const)('%s', (_name, order, expected) => {
    expect(sql(order)).toEqual(expected);
    expect(js(order)).toEqual(expected);
  });
});

describe('vote ids: the app writes them, the server reads them', () => {
  it.each([
    ['topic', 'abc', 'topic_abc'],
    ['response', '0190_x-Y', 'response_0190_x-Y'],
  ] as const)('%s %s ⇄ %s', (targetType, targetId, id) => {
    expect(voteDocId(targetType, targetId)).toBe(id);
    expect(parseVoteDocId(id)).toEqual({ targetType, targetId });
  });

  it.each(['', 'topic', 'topic_', 'comment_1', '_1', 'Topic_1'])('%j is not a vote id', (id) => {
    expect(parseVoteDocId(id)).toBeNull();
  });
});

describe('ownership and parent checks', () => {
  const refusal = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (error) {
      return error instanceof CruxError ? { status: error.status, code: error.code, message: error.message } : error;
    }
  };

  it.each([
    ['u1', 'u1', null],
    ['u1', 'u2', { status: 403, code: 'permission-denied', message: MSG.notYourTopic }],
  ])('creator %s, caller %s', (creator, caller, expected) => {
    expect(refusal(() => assertOwner({ creator_uid: creator }, caller, MSG.notYourTopic))).toEqual(expected);
  });

  it.each([
    ['t1', 't1', null],
    ['t1', null, null],
    ['t1', undefined, null],
    ['t1', 't2', { status: 400, code: 'invalid-argument', message: MSG.parentOtherTopic }],
  ])('parent in %s, reply names %s', (parentTopic, topicId, expected) => {
    expect(refusal(() => assertParentInTopic({ topic_id: parentTopic }, topicId))).toEqual(expected);
  });
});
