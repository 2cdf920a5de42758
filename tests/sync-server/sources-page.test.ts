// The sources page's API: GET /api/sources paged (limit, offset; no silent cap), filtered,
// with the responses citing each source; GET /api/sources/{id}/responses; bad input → 400.
// Also /robots.txt and /sitemap.xml, served as what they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Source, SourceCitation, SourceListing, Topic } from '../../shared/types.js';
import { apiClient, type ApiResult } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { request as httpRequest } from 'node:http';
import { createApp } from '../../sync-server/src/app.js';

/** GET with a Host header of the caller's choosing (fetch would not send it). */
function getWithHost(url: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sources page API', () => {
  let server: TestServer;
  let ada: TestUser;
  let topic: Topic;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const cited: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    topic = await makeTopic(as(ada), { title: 'Is nuclear power safe?' });
    // 612 sources: more than the old silent cap of 500.
    for (let batch = 0; batch < 62; batch += 1) {
      const sources = Array.from({ length: 10 }, (_, i) => {
        const n = String(batch * 10 + i).padStart(4, '0');
        return { url: `https://bulk.example/${n}`, name: `Bulk ${n}` };
      }).slice(0, batch === 61 ? 2 : 10);
      await makeResponse(as(ada), { topic_id: topic.id, sources });
    }
    const first = await makeResponse(as(ada), {
      topic_id: topic.id,
      content: 'The IAEA says so',
      sources: [{ url: 'https://www.iaea.org/safety', name: 'IAEA 50%_off report', description: 'Radiation statistics' }],
    });
    const second = await makeResponse(as(ada), { topic_id: topic.id, content: 'Again', sources: [{ url: 'https://www.iaea.org/safety' }] });
    const gone = await makeResponse(as(ada), { topic_id: topic.id, content: 'Deleted', sources: [{ url: 'https://www.iaea.org/safety' }] });
    expect((await as(ada).del(`/responses/${gone.id}`)).status).toBe(204);
    cited.first = first.id;
    cited.second = second.id;
  });
  afterAll(() => server.stop());

  it('pages through every source with limit and offset, the total and next offset in headers', async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const res: ApiResult<Source[]> = await as().get<Source[]>(`/sources?limit=200&offset=${offset}`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('613');
      seen.push(...res.body.map((s) => s.url));
      const next: string | null = res.headers.get('x-next-offset');
      if (next) expect(res.headers.get('link')).toContain(`offset=${next}`);
      offset = next === null ? null : Number(next);
      pages += 1;
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(613);
    expect(new Set(seen).size).toBe(613);
  });

  it('says when the default page is not the whole list', async () => {
    const res = await as().get<Source[]>('/sources');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
    expect(res.headers.get('x-total-count')).toBe('613');
    expect(res.headers.get('x-next-offset')).toBe('100');
  });

  it('filters by a substring of name, URL or description, any case; % and _ are plain text', async () => {
    const urls = async (filter: string) =>
      (await as().get<Source[]>(`/sources?filter=${encodeURIComponent(filter)}`)).body.map((s) => s.url);
    expect(await urls('iaea')).toEqual(['https://www.iaea.org/safety']);
    expect(await urls('RADIATION')).toEqual(['https://www.iaea.org/safety']);
    expect(await urls('50%_off')).toEqual(['https://www.iaea.org/safety']);
    expect(await urls('%')).toEqual(['https://www.iaea.org/safety']);
    expect(await urls('bulk 061')).toHaveLength(2);
    expect(await urls('nothing like this')).toEqual([]);
    const res = await as().get('/sources?filter=bulk&limit=5&offset=600');
    expect(res.headers.get('x-total-count')).toBe('612');
    expect(res.body).toHaveLength(5);
  });

  it('include=citations lists the live responses citing each source, with their topic', async () => {
    const res = await as().get<SourceListing[]>('/sources?filter=iaea&include=citations');
    expect(res.status).toBe(200);
    const [iaea] = res.body;
    expect(iaea!.cited_count).toBe(2);
    expect(iaea!.cited_by.map((c) => c.id).sort()).toEqual([cited.first, cited.second].sort());
    expect(iaea!.cited_by[0]).toMatchObject({ topic_id: topic.id, topic_title: 'Is nuclear power safe?' });
  });

  it('GET /api/sources/{id}/responses pages the citing responses; unknown source → 404', async () => {
    const [iaea] = (await as().get<Source[]>('/sources?filter=iaea')).body;
    const res = await as().get<SourceCitation[]>(`/sources/${iaea!.id}/responses?limit=1`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]!.topic_id).toBe(topic.id);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.headers.get('x-next-offset')).toBe('1');
    const rest = await as().get<SourceCitation[]>(`/sources/${iaea!.id}/responses?offset=1`);
    expect(rest.body).toHaveLength(1);
    expect(rest.headers.get('x-next-offset')).toBeNull();
    const missing = await as().get('/sources/no-such-source/responses');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Source not found.');
  });

  it.each([
    ['/sources?limit=0', 'limit must be between 1 and 500.'],
    ['/sources?limit=501', 'limit must be between 1 and 500.'],
    ['/sources?limit=-1', 'limit must be a whole number.'],
    ['/sources?limit=abc', 'limit must be a whole number.'],
    ['/sources?limit=1.5', 'limit must be a whole number.'],
    ['/sources?limit=99999999999999999999', 'limit must be a whole number.'],
    ['/sources?offset=-5', 'offset must be a whole number.'],
    ['/sources?offset=1e3', 'offset must be a whole number.'],
    ['/sources?offset=', 'offset must be a whole number.'],
    [`/sources?filter=${'f'.repeat(501)}`, 'filter is too long.'],
    ['/sources?include=everything', 'include must be "citations".'],
    ['/sources?sort=name', 'Unknown field: sort.'],
    ['/sources/x/responses?limit=0', 'limit must be between 1 and 500.'],
    ['/sources/x/responses?filter=a', 'Unknown field: filter.'],
  ])('GET %s → 400', async (path, message) => {
    const res = await as().get(path);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('a repeated query parameter is one value (never a 500)', async () => {
    const res = await as().get('/sources?limit=5&limit=7');
    expect([200, 400]).toContain(res.status);
  });

  it('/robots.txt is text/plain and points to the sitemap', async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain('Disallow: /api/');
    expect(text).toMatch(/Sitemap: http:\/\/.+\/sitemap\.xml/);
  });

  it('/sitemap.xml is application/xml listing the pages and topics', async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const text = await res.text();
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(text).toContain(`${server.url}/sources</loc>`);
    expect(text).toContain(`${server.url}/topics/${topic.id}</loc>`);
  });

  it('robots.txt and sitemap.xml name the site, never the Host header the caller sent', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const text = await getWithHost(`${server.url}${path}`, 'evil.example');
      expect(text).not.toContain('evil.example');
      expect(text).toContain(server.url);
    }
    // With PUBLIC_URL, its origin, whatever the Host.
    const { app } = createApp({
      store: server.store,
      verifier: { verify: () => Promise.reject(new Error('unused')) },
      log: () => {},
      publicUrl: 'https://crux.example',
    });
    const robots = await (await app.request('/robots.txt', { headers: { host: 'evil.example' } })).text();
    expect(robots).toContain('Sitemap: https://crux.example/sitemap.xml');
    const sitemap = await (await app.request('/sitemap.xml', { headers: { host: 'evil.example' } })).text();
    expect(sitemap).toContain(`<loc>https://crux.example/topics/${topic.id}</loc>`);
    expect(sitemap).not.toContain('evil.example');
  });
});
