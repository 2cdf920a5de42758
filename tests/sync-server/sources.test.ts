// /api/sources: the catalogue built from responses' sources, listed and searched
// by name, URL and description; source validation on responses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response, Source, Topic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('sources', () => {
  let server: TestServer;
  let ada: TestUser;
  let topic: Topic;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    topic = await makeTopic(as(ada));
    await makeResponse(as(ada), {
      topic_id: topic.id,
      sources: [
        { url: ' https://www.iaea.org/reports/safety ', name: ' IAEA safety report ', description: ' Radiation statistics by year ' },
        { url: 'https://ourworldindata.org/energy', name: 'Our World in Data', description: 'Energy mix charts' },
        { url: 'https://example.com/plain' },
        { url: "https://evil.example/'); DROP TABLE sources; --", name: "Robert'); DROP TABLE sources; --" },
      ],
    });
  });
  afterAll(() => server.stop());

  const search = async (q: string) => {
    const res = await as().get<Source[]>(`/sources?q=${encodeURIComponent(q)}`);
    expect(res.status, res.text).toBe(200);
    return res.body.map((s) => s.url);
  };

  it('GET /api/sources lists every source with id, url, name, description, trimmed', async () => {
    const res = await as().get<Source[]>('/sources');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(4);
    expect(res.body).toContainEqual({
      id: expect.any(String),
      url: 'https://www.iaea.org/reports/safety',
      name: 'IAEA safety report',
      description: 'Radiation statistics by year',
    });
    expect(res.body).toContainEqual({ id: expect.any(String), url: 'https://example.com/plain', name: null, description: null });
  });

  it.each([
    ['by name', 'IAEA', ['https://www.iaea.org/reports/safety']],
    ['by name prefix, any case', 'our wor', ['https://ourworldindata.org/energy']],
    ['by description', 'radiation', ['https://www.iaea.org/reports/safety']],
    ['by description words', 'energy mix', ['https://ourworldindata.org/energy']],
    ['by URL host', 'ourworldindata', ['https://ourworldindata.org/energy']],
    ['by URL with dots', 'example.com', ['https://example.com/plain']],
    ['by full URL', 'https://example.com/plain', ['https://example.com/plain']],
    ['by URL path', 'reports', ['https://www.iaea.org/reports/safety']],
  ])('?q= finds %s', async (_label, q, expected) => {
    expect(await search(q)).toEqual(expected);
  });

  it.each([
    ["'); DROP TABLE sources; --", ["https://evil.example/'); DROP TABLE sources; --"]],
    ['" OR 1=1 --', []],
    ['name:IAEA', []],
    ['IAEA OR energy', []],
    ['NOT energy', []],
    ['NEAR(iaea safety)', []],
    ['*', []],
    ['"', []],
    ['', []],
  ])('?q=%j is searched as plain text', async (q, expected) => {
    const before = await countRows(server.db, 'sources');
    expect(await search(q)).toEqual(expected);
    expect(await countRows(server.db, 'sources')).toBe(before);
  });

  it('?q= longer than 500 characters → 400', async () => {
    const res = await as().get(`/sources?q=${'x'.repeat(501)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('q is too long.');
  });

  it('a response lists its sources in the order given, a URL once', async () => {
    const res = await makeResponse(as(ada), {
      topic_id: topic.id,
      sources: [
        { url: 'https://b.example/', name: 'B' },
        { url: 'https://a.example/', name: 'A' },
        { url: 'https://b.example/', name: 'B again' },
      ],
    });
    expect(res.sources.map((s) => [s.url, s.name])).toEqual([
      ['https://b.example/', 'B'],
      ['https://a.example/', 'A'],
    ]);
  });

  it("one catalogue row per URL, shared by responses; each citation keeps its own author's name", async () => {
    const url = 'https://shared.example/study';
    const first = await makeResponse(as(ada), { topic_id: topic.id, sources: [{ url }] });
    const second = await makeResponse(as(ada), { topic_id: topic.id, sources: [{ url, name: 'The study', description: 'Peer reviewed' }] });
    const third = await makeResponse(as(ada), { topic_id: topic.id, sources: [{ url, name: 'Renamed?' }] });
    expect(await countRows(server.db, 'sources', 'url = ?', url)).toBe(1);
    expect(second.sources[0]!.id).toBe(first.sources[0]!.id);
    expect(second.sources[0]).toEqual({ id: first.sources[0]!.id, url, name: 'The study', description: 'Peer reviewed' });
    expect(third.sources[0]).toEqual({ id: first.sources[0]!.id, url, name: 'Renamed?', description: null });
    const reread = (await as().get<Response>(`/responses/${first.id}`)).body;
    expect(reread.sources[0]).toEqual({ id: first.sources[0]!.id, url, name: null, description: null });
    // The catalogue still finds the URL by the description a citation gave it.
    expect(await search('peer reviewed')).toEqual([url]);
  });

  it.each([
    ['javascript: URL', { url: 'javascript:alert(document.cookie)' }, 'A source URL must start with http:// or https://.'],
    ['data: URL', { url: 'data:text/html;base64,PHNjcmlwdD4=' }, 'A source URL must start with http:// or https://.'],
    ['relative URL', { url: '/etc/passwd' }, 'A source URL must start with http:// or https://.'],
    ['blank URL', { url: '   ' }, 'A source needs a URL.'],
    ['URL over 2,048', { url: `https://long.example/${'a'.repeat(2_048)}` }, 'A source URL has at most 2048 characters.'],
    ['name over 200', { url: 'https://n.example/', name: 'n'.repeat(201) }, 'A source name has at most 200 characters.'],
    [
      'description over 1,000',
      { url: 'https://d.example/', description: 'd'.repeat(1_001) },
      'A source description has at most 1000 characters.',
    ],
    ['unknown field', { url: 'https://u.example/', rating: 5 }, 'Unknown field: rating.'],
  ])('a source with %s → 400, nothing stored', async (_label, source, message) => {
    const before = { sources: await countRows(server.db, 'sources'), responses: await countRows(server.db, 'responses') };
    const res = await as(ada).post('/responses', {
      topic_id: topic.id,
      content: 'With a bad source',
      type: 'for',
      sources: [{ url: 'https://fine.example/' }, source],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect({ sources: await countRows(server.db, 'sources'), responses: await countRows(server.db, 'responses') }).toEqual(before);
  });

  it('ten sources are accepted', async () => {
    const sources = Array.from({ length: 10 }, (_, i) => ({ url: `https://ten.example/${i}` }));
    const res = await makeResponse(as(ada), { topic_id: topic.id, sources });
    expect(res.sources).toHaveLength(10);
  });
});
