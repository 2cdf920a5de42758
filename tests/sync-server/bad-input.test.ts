// Bad input never hurts (point 6): every case is a 4xx with a clear
// `error`, never a 500, and leaves the database exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import type { Response, Topic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const NOT_OBJECT = 'The request body must be a JSON object.';
const EMPTY = 'The request body is empty; send a JSON object.';
const MIB = 1024 * 1024;
// Fixed ids so the table of cases below can name them before the items exist.
const TOPIC_ID = 'target-topic';
const RESPONSE_ID = 'target-response';

describe('bad input', () => {
  let server: TestServer;
  let ada: TestUser;
  let topic: Topic;
  let response: Response;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  /** Everything a write could touch: row counts per table and the change counter. */
  const snapshot = async () => {
    const tables = ['topics', 'responses', 'sources', 'response_sources', 'votes', 'notifications', 'users'];
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = await countRows(server.db, table);
    return { ...counts, seq: await server.db.seq() };
  };

  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    topic = await makeTopic(as(ada), { id: TOPIC_ID, title: 'Target topic' });
    response = await makeResponse(as(ada), { id: RESPONSE_ID, topic_id: topic.id, content: 'Target response' });
  });
  afterAll(() => server.stop());

  type Case = [label: string, method: 'POST' | 'PUT' | 'DELETE', path: () => string, body: unknown, status: number, error?: string];
  const topicBody = { title: 'Fine title', categories: ['Science'] };
  const responseBody = () => ({ topic_id: TOPIC_ID, content: 'Fine content', type: 'for' });
  const cases: Case[] = [
    // Malformed and non-object JSON, on every write that takes a body.
    ['malformed JSON (topic)', 'POST', () => '/topics', '{"title": "x", ', 400, MSG.invalidJson],
    ['malformed JSON (response)', 'POST', () => '/responses', '{content: unquoted}', 400, MSG.invalidJson],
    ['malformed JSON (edit)', 'PUT', () => `/responses/${RESPONSE_ID}`, "{'content': 'single quotes'}", 400, MSG.invalidJson],
    ['malformed JSON (upvote)', 'POST', () => '/upvotes', '{"target_type":"topic",}', 400, MSG.invalidJson],
    ['malformed JSON (unvote)', 'DELETE', () => '/upvotes', 'nope', 400, MSG.invalidJson],
    ['malformed JSON (preferences)', 'POST', () => '/users/preferences', '{"receive_weekly_summary": tru}', 400, MSG.invalidJson],
    ['trailing garbage', 'POST', () => '/topics', `${JSON.stringify(topicBody)} extra`, 400, MSG.invalidJson],
    ['JSON array', 'POST', () => '/topics', '[{"title":"x","categories":["Science"]}]', 400, NOT_OBJECT],
    ['JSON string', 'POST', () => '/responses', '"content"', 400, NOT_OBJECT],
    ['JSON number', 'POST', () => '/upvotes', '42', 400, NOT_OBJECT],
    ['JSON null', 'PUT', () => `/responses/${RESPONSE_ID}`, 'null', 400, NOT_OBJECT],
    ['JSON true', 'POST', () => '/users/preferences', 'true', 400, NOT_OBJECT],
    ['empty body (topic)', 'POST', () => '/topics', '', 400, EMPTY],
    ['whitespace body (response)', 'POST', () => '/responses', '   \n', 400, EMPTY],
    ['empty body (unvote)', 'DELETE', () => '/upvotes', '', 400, EMPTY],
    ['deeply nested JSON', 'POST', () => '/topics', `${'['.repeat(200_000)}${']'.repeat(200_000)}`, 400],
    ['deeply nested object', 'POST', () => '/topics', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, 400],
    ['wide array', 'POST', () => '/responses', `{"sources": [${'{},'.repeat(200_000)}{}]}`, 400],
    [
      'half an emoji (lone surrogate)',
      'POST',
      () => '/topics',
      '{"title": "broken \\ud83d text", "categories": ["Other"]}',
      400,
      'The request contains text that is not valid Unicode.',
    ],
    [
      'lone surrogate in content',
      'POST',
      () => '/responses',
      `{"topic_id": "${TOPIC_ID}", "content": "x\\udc00", "type": "for"}`,
      400,
      'The request contains text that is not valid Unicode.',
    ],
    ['lone surrogate in a key', 'POST', () => '/upvotes', '{"\\ud800": 1}', 400, 'The request contains text that is not valid Unicode.'],
    // Wrong types.
    ['title as number', 'POST', () => '/topics', { title: 42, categories: ['Science'] }, 400, MSG.titleEmpty],
    ['title as object', 'POST', () => '/topics', { title: { $gt: '' }, categories: ['Science'] }, 400, MSG.titleEmpty],
    ['categories as string', 'POST', () => '/topics', { title: 'x', categories: 'Science' }, 400, MSG.categoryMissing],
    ['categories with a number', 'POST', () => '/topics', { title: 'x', categories: [1] }, 400],
    ['id as object', 'POST', () => '/topics', { ...topicBody, id: { a: 1 } }, 400, 'An id must be a string.'],
    [
      'id with SQL',
      'POST',
      () => '/topics',
      { ...topicBody, id: "x' OR '1'='1" },
      400,
      'An id is 1–64 characters of letters, digits, "_" or "-".',
    ],
    [
      'id too long',
      'POST',
      () => '/topics',
      { ...topicBody, id: 'a'.repeat(65) },
      400,
      'An id is 1–64 characters of letters, digits, "_" or "-".',
    ],
    ['content as array', 'POST', () => '/responses', { ...responseBody(), content: ['x'] }, 400, MSG.contentEmpty],
    ['content as null', 'POST', () => '/responses', { ...responseBody(), content: null }, 400, MSG.contentEmpty],
    ['type as number', 'POST', () => '/responses', { ...responseBody(), type: 1 }, 400, 'type must be one of: for, against, neutral.'],
    ['topic_id as object', 'POST', () => '/responses', { ...responseBody(), topic_id: { id: 1 } }, 400],
    ['topic_id as boolean', 'POST', () => '/responses', { ...responseBody(), topic_id: true }, 400],
    [
      'sources as object',
      'POST',
      () => '/responses',
      { ...responseBody(), sources: { url: 'https://a.example' } },
      400,
      'Sources must be a list.',
    ],
    ['source as string', 'POST', () => '/responses', { ...responseBody(), sources: ['https://a.example'] }, 400],
    ['target_id as array', 'POST', () => '/upvotes', { target_type: 'topic', target_id: ['x'] }, 400],
    [
      'preference as string',
      'POST',
      () => '/users/preferences',
      { receive_weekly_summary: 'true' },
      400,
      'receive_weekly_summary must be true or false.',
    ],
    ['edit content as number', 'PUT', () => `/responses/${RESPONSE_ID}`, { content: 5 }, 400, MSG.contentEmpty],
    // Unknown fields.
    ['unknown topic field', 'POST', () => '/topics', { ...topicBody, admin: true }, 400, 'Unknown field: admin.'],
    ['unknown response field', 'POST', () => '/responses', { ...responseBody(), html: '<b>' }, 400, 'Unknown field: html.'],
    ['unknown edit field', 'PUT', () => `/responses/${RESPONSE_ID}`, { content: 'x', owner: 'me' }, 400, 'Unknown field: owner.'],
    ['unknown vote field', 'POST', () => '/upvotes', { target_type: 'topic', target_id: 'x', count: 100 }, 400, 'Unknown field: count.'],
    [
      'unknown preference field',
      'POST',
      () => '/users/preferences',
      { receive_weekly_summary: true, admin: true },
      400,
      'Unknown field: admin.',
    ],
    [
      '__proto__ field',
      'POST',
      () => '/topics',
      `{"__proto__": {"admin": true}, "title": "x", "categories": ["Science"]}`,
      400,
      'Unknown field: __proto__.',
    ],
    // Over-limit sizes.
    [
      'title over 300',
      'POST',
      () => '/topics',
      { title: 't'.repeat(301), categories: ['Science'] },
      400,
      'A topic title has at most 300 characters.',
    ],
    [
      'content over 10,000',
      'POST',
      () => '/responses',
      { ...responseBody(), content: 'c'.repeat(10_001) },
      400,
      'A response has at most 10000 characters.',
    ],
    [
      'edit content over 10,000',
      'PUT',
      () => `/responses/${RESPONSE_ID}`,
      { content: 'c'.repeat(10_001) },
      400,
      'A response has at most 10000 characters.',
    ],
    [
      '11 sources',
      'POST',
      () => '/responses',
      { ...responseBody(), sources: Array.from({ length: 11 }, (_, i) => ({ url: `https://s.example/${i}` })) },
      400,
      'A response has at most 10 sources.',
    ],
    [
      'URL over 2,048',
      'POST',
      () => '/responses',
      { ...responseBody(), sources: [{ url: `https://s.example/${'u'.repeat(2_040)}` }] },
      400,
      'A source URL has at most 2048 characters.',
    ],
    [
      'javascript: URL',
      'POST',
      () => '/responses',
      { ...responseBody(), sources: [{ url: 'javascript:alert(1)' }] },
      400,
      'A source URL must start with http:// or https://.',
    ],
    [
      'javascript: URL with spaces',
      'POST',
      () => '/responses',
      { ...responseBody(), sources: [{ url: '  javascript://example.com/%0Aalert(1)' }] },
      400,
      'A source URL must start with http:// or https://.',
    ],
    ['body over 1 MiB', 'POST', () => '/topics', { title: 'x', categories: ['Science'], pad: 'p'.repeat(MIB) }, 413, MSG.bodyTooLarge],
    ['content over 1 MiB', 'POST', () => '/responses', { ...responseBody(), content: 'c'.repeat(MIB + 10) }, 413, MSG.bodyTooLarge],
    ['edit over 1 MiB', 'PUT', () => `/responses/${RESPONSE_ID}`, { content: 'c'.repeat(2 * MIB) }, 413, MSG.bodyTooLarge],
    [
      'preferences over 1 MiB',
      'POST',
      () => '/users/preferences',
      `{"receive_weekly_summary": true${' '.repeat(MIB)}}`,
      413,
      MSG.bodyTooLarge,
    ],
  ];

  it.each(cases)('%s → %d with an error, nothing written', async (_label, method, path, body, status, error) => {
    const before = await snapshot();
    const api = as(ada);
    const call = method === 'POST' ? api.post : method === 'PUT' ? api.put : api.del;
    const res = await call(path(), body);
    expect(res.status, res.text.slice(0, 300)).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error.length).toBeGreaterThan(0);
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/); // never a stack trace
    if (error !== undefined) expect(res.body.error).toBe(error);
    expect(await snapshot()).toEqual(before);
    expect((await as().get(`/responses/${response.id}`)).body.content).toBe('Target response');
  });

  it('a streamed body over 1 MiB without Content-Length → 413, nothing written', async () => {
    const before = await snapshot();
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"title":"'));
        if (sent >= 20) {
          controller.enqueue(new TextEncoder().encode('","categories":["Science"]}'));
          controller.close();
          return;
        }
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${server.url}/api/topics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: MSG.bodyTooLarge, code: 'resource-exhausted' });
    expect(await snapshot()).toEqual(before);
  });

  it('a streamed body within the limit is read normally', async () => {
    const json = JSON.stringify({ title: 'Streamed topic', categories: ['Science'] });
    const bytes = new TextEncoder().encode(json);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/api/topics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(((await res.json()) as Topic).title).toBe('Streamed topic');
  });

  it('413s one after another on kept-alive connections stay clean answers', async () => {
    for (const size of [1.1, 2, 1.5, 3, 2, 20, 2]) {
      const res = await as(ada).post('/responses', { ...responseBody(), content: 'c'.repeat(size * MIB) });
      expect(res.status).toBe(413);
      expect(res.body.error).toBe(MSG.bodyTooLarge);
    }
    expect((await as(ada).post('/topics', topicBody)).status).toBe(201);
  });

  it('a body just under 1 MiB is read (and refused only for what it says)', async () => {
    const res = await as(ada).post('/topics', { title: 'x', categories: ['Science'], pad: 'p'.repeat(MIB - 100) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Unknown field: pad.');
  });

  describe('text is stored verbatim', () => {
    it.each([
      ['SQL injection', "Robert'); DROP TABLE topics; --"],
      ['SQL tautology', "' OR '1'='1' --"],
      ['HTML', '<script>alert("x")</script><img src=x onerror=alert(1)>'],
      ['emoji', 'Is 🍕 better than 🌮? 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷'],
      ['RTL and zero-width', 'مرحبا\u200f\u200b\u202e reversed'],
      ['accents, CJK', 'Ça va? 日本語のテキスト 한국어'],
      ['FTS syntax', 'NEAR("a" "b") OR title:* AND NOT ^x'],
      ['percent and backslash', '100% \\ %00 %s %d \\n'],
      // PostgreSQL text cannot hold it: the PostgreSQL store escapes it (store/pg/nul.ts), with the escape itself.
      ['NUL character', 'before\u0000after \ue000 \ue000\u0001'],
    ])('%s in a title and in content', async (_label, text) => {
      const created = await as(ada).post<Topic>('/topics', { title: `  ${text}  `, categories: ['Other'] });
      expect(created.status, created.text).toBe(201);
      expect(created.body.title).toBe(text);
      expect((await as().get<Topic>(`/topics/${created.body.id}`)).body.title).toBe(text);
      const reply = await as(ada).post<Response>('/responses', { topic_id: created.body.id, content: ` ${text}\n`, type: 'neutral' });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.content).toBe(` ${text}\n`);
      expect((await as().get<Response>(`/responses/${reply.body.id}`)).body.content).toBe(` ${text}\n`);
      const sourced = await as(ada).post<Response>('/responses', {
        topic_id: created.body.id,
        content: 'with a source',
        type: 'for',
        sources: [{ url: `https://example.com/?q=${encodeURIComponent(text)}`, name: text, description: text }],
      });
      expect(sourced.status, sourced.text).toBe(201);
      expect(sourced.body.sources[0]).toMatchObject({ name: text.trim(), description: text.trim() });
    });

    it('a title of 300 emoji-free characters with multi-byte letters is accepted', async () => {
      const title = 'é'.repeat(300);
      expect((await as(ada).post('/topics', { title, categories: ['Other'] })).body.title).toBe(title);
    });
  });

  describe('addresses and queries', () => {
    it.each([
      ['GET', '/nope', 404],
      ['GET', '/topics/a/b/c', 404],
      ['PATCH', '/topics', 404],
      ['GET', '/topics/%E0%A4%A', 404],
      ['GET', `/topics/${'x'.repeat(5000)}`, 404],
      ['GET', "/topics/1'%20OR%20'1'='1", 404],
      ['GET', '/responses/..%2F..%2Fetc%2Fpasswd', 404],
      ['GET', '/topics?limit=99999999999999999999999', 400],
      ['GET', '/topics?offset=1e3', 400],
      ['GET', '/topics?sort=hot;DROP', 400],
      ['GET', "/topics?category=Science'--", 400],
      ['GET', `/topics?search=${'s'.repeat(5000)}`, 400],
      ['GET', '/responses?topic_id=', 400],
      ['GET', `/responses/search?topic_id=${'t'}&q=${'q'.repeat(501)}`, 400],
      ['GET', `/sources?q=${'q'.repeat(501)}`, 400],
      ['GET', '/notifications/user/x?limit=-1', 401],
      ['PUT', '/notifications/%ZZ/read', 401],
    ])('%s %s → %d with an error', async (method, path, status) => {
      const before = await snapshot();
      const res = await fetch(`${server.url}/api${path}`, { method });
      expect(res.status).toBe(status);
      const body = (await res.json()) as { error: unknown };
      expect(typeof body.error).toBe('string');
      expect(await snapshot()).toEqual(before);
    });
  });
});
