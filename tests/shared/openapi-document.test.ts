// The OpenAPI document (sync-server/src/openapi/) against the app itself: every route the app serves
// is described with the same method and path and every described route is served; each answer's
// schema says something and refuses a wrong body; docs/API.md is what the generator writes.
// (Real answers are checked against it in tests/sync-server/openapi-answers.test.ts.)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp, type AppDeps } from '../../sync-server/src/app.js';
import { buildOpenApiDocument, openApiPath } from '../../sync-server/src/openapi/document.js';
import { apiMarkdownFile } from '../../sync-server/src/openapi/markdown.js';
import { answerChecker } from '../fixtures/openapi.js';

/**
 * What the app serves that is not part of the REST API, each with its reason. Middleware (a handler
 * that calls `next`) is told apart by Hono itself (see servedRoutes); anything else the app answers
 * must be described or listed here.
 */
const NOT_THE_API = new Set([
  // The catch-all that answers an unknown /api/... address with the 404 error body.
  'ALL /api/*',
  // Site files (routes/site-files.ts): robots, the sitemap and the single-page app's shell and files.
  'GET /robots.txt',
  'GET /sitemap.xml',
  'GET /',
  'GET /*',
  // The operator's Prometheus scrape (observe/metrics-access.ts), for a METRICS_TOKEN bearer only
  // (404 without one): not part of the public API (docs/OPERATIONS.md "Metrics").
  'GET /metrics',
  // The read-only embed of a topic for other sites (routes/embed.ts): an HTML page and its sizing
  // script, not JSON; oEmbed, which platforms call, is described.
  'GET /embed.js',
  'GET /embed/topics/:id',
]);

/** The app as the server builds it; listing its routes reads neither the store (but for its optional read-replica hooks) nor the verifier. */
function servedRoutes(): string[] {
  const { app } = createApp({ store: {} } as AppDeps);
  return (
    app.routes
      // Middleware: `(c, next) => …` (security headers, compression, auth, limits, the sync version check).
      .filter((route) => route.handler.length < 2)
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !NOT_THE_API.has(route))
  );
}

const doc = buildOpenApiDocument(createApp({ store: {} } as AppDeps).app);
const described = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

describe('the OpenAPI document', () => {
  it('describes every route the app serves, with the same method and path', () => {
    const served = servedRoutes().map((route) => openApiPath(route));
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((route) => !described.includes(route))).toEqual([]);
  });

  it('describes no route the app does not serve', () => {
    const served = new Set(servedRoutes().map((route) => openApiPath(route)));
    expect(described.filter((route) => !served.has(route))).toEqual([]);
    expect(described).toHaveLength(served.size);
  });

  it('is OpenAPI 3.1 with JSON Schema 2020-12 schemas, each one a valid schema', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    const check = answerChecker(doc);
    // Compiling every answer's schema in strict mode refuses unknown keywords and broken refs.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          if (answer.content?.['application/json']) expect(check.errors(method, path, Number(status), null)).toBeInstanceOf(Array);
        }
      }
    }
  });

  it('gives every JSON answer a schema that says something, and every error the error body', () => {
    const check = answerChecker(doc);
    const empty: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          const schema = answer.content?.['application/json']?.schema;
          if (Number(status) >= 400) expect(schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
          if (schema && !check.isMeaningful(schema)) empty.push(`${method} ${path} ${status}`);
          // Every route answers something other than an error.
          expect(Object.keys(op.responses).some((code) => Number(code) < 400)).toBe(true);
        }
      }
    }
    expect(empty).toEqual([]);
    expect(check.isMeaningful({})).toBe(false);
    expect(check.isMeaningful({ type: 'object' })).toBe(false);
  });

  it('refuses wrong bodies: a missing field, a wrong type, an unknown field, an error without its message', () => {
    const check = answerChecker(doc);
    const topic = {
      id: 't1',
      title: 'Is tea better?',
      categories: ['Culture'],
      created_at: '2026-01-01T00:00:00.000Z',
      username: null,
      creator_uid: 'u1',
      score: 0,
      user_has_upvoted: false,
      user_has_downvoted: false,
      responses_count: 0,
      locked: false,
      moderation: null,
      moderation_reason: null,
    };
    expect(check.errors('get', '/api/topics/{id}', 200, topic)).toEqual([]);
    expect(check.errors('get', '/api/topics', 200, [topic])).toEqual([]);
    const { title: _title, ...untitled } = topic;
    expect(check.errors('get', '/api/topics/{id}', 200, untitled)).not.toEqual([]);
    expect(check.errors('get', '/api/topics/{id}', 200, { ...topic, score: '3' })).not.toEqual([]);
    expect(check.errors('get', '/api/topics/{id}', 200, { ...topic, categories: ['Cooking'] })).not.toEqual([]);
    expect(check.errors('get', '/api/topics/{id}', 200, { ...topic, secret: 1 })).not.toEqual([]);
    expect(check.errors('get', '/api/topics', 200, topic)).not.toEqual([]);
    expect(check.errors('get', '/api/topics/{id}', 404, { error: 'Topic not found.', code: 'not-found' })).toEqual([]);
    expect(check.errors('get', '/api/topics/{id}', 404, { code: 'not-found' })).not.toEqual([]);
    expect(check.errors('get', '/api/topics/{id}', 404, { error: 'x', code: 'nope' })).not.toEqual([]);
    expect(() => check.errors('get', '/api/topics/{id}', 418, {})).toThrow(/no JSON answer/);
    // A sync document is one of the collections' documents or tombstones, not any object with an id.
    const checkpoint = { id: 't1', seq: 3 };
    expect(check.errors('get', '/api/sync/{collection}/pull', 200, { documents: [], checkpoint })).toEqual([]);
    expect(
      check.errors('get', '/api/sync/{collection}/pull', 200, { documents: [{ id: 't1', seq: 3, _deleted: true }], checkpoint }),
    ).toEqual([]);
    expect(
      check.errors('get', '/api/sync/{collection}/pull', 200, { documents: [{ id: 't1', seq: 3, _deleted: false }], checkpoint }),
    ).not.toEqual([]);
    expect(
      check.errors('get', '/api/sync/{collection}/pull', 200, { documents: [{ ...topic, seq: 1, _deleted: false }], checkpoint }),
    ).not.toEqual([]);
  });

  it("gives request bodies' examples that fit their schemas, and refuses an unknown field", () => {
    const check = answerChecker(doc);
    let examples = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const example = op.requestBody?.content['application/json']?.example;
        if (example === undefined) continue;
        examples++;
        expect(check.bodyErrors(method, path, example), `${method} ${path}`).toEqual([]);
      }
    }
    expect(examples).toBeGreaterThan(5);
    expect(check.bodyErrors('post', '/api/topics', { title: 'x', categories: ['Culture'], secret: 1 })).not.toEqual([]);
    expect(check.bodyErrors('post', '/api/topics', { categories: ['Culture'] })).not.toEqual([]);
  });

  it('describes each route with its auth, path parameters and, for writes, a body', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(['none', 'optional', 'required']).toContain(op['x-crux-auth']);
        const params = path.match(/\{[^}]+\}/g) ?? [];
        expect(op.parameters?.filter((p) => p.in === 'path').map((p) => `{${p.name}}`) ?? []).toEqual(params);
        for (const param of op.parameters?.filter((p) => p.in === 'path') ?? []) expect(param.description).toBeTruthy();
        if (op['x-crux-auth'] !== 'none') expect(op.responses['401'], `${method} ${path}`).toBeDefined();
      }
    }
    expect(doc.paths['/api/topics']!.post!.requestBody?.required).toBe(true);
    expect(doc.paths['/api/topics']!.get!.parameters?.map((p) => p.name)).toEqual(['limit', 'offset', 'sort', 'category', 'search']);
  });
});

describe("the document's bounds are the server's", () => {
  /** Every whole-number query parameter, on routes a visitor may call (a signed-in route checks the caller first). */
  const bounded = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      (op.parameters ?? [])
        .filter((param) => param.in === 'query' && param.schema['type'] === 'integer')
        .map((param) => ({ method, path, op, param })),
    ),
  );

  it('gives every whole-number query parameter its range', () => {
    expect(bounded.length).toBeGreaterThan(15);
    for (const { method, path, param } of bounded) {
      expect(typeof param.schema['minimum'], `${method} ${path} ${param.name}`).toBe('number');
      expect(typeof param.schema['maximum'], `${method} ${path} ${param.name}`).toBe('number');
    }
  });

  it('is refused by the app just past each range, with the error body', async () => {
    const { app } = createApp({ store: {}, fastReads: false } as AppDeps);
    let checked = 0;
    for (const { method, path, op, param } of bounded) {
      if (method !== 'get' || op['x-crux-auth'] === 'required') continue;
      const address = path.replace('{collection}', 'topics').replace(/\{[^}]+\}/g, 'x');
      for (const value of [Number(param.schema['maximum']) + 1, Number(param.schema['minimum']) - 1]) {
        if (value < 0) continue;
        const res = await app.request(`${address}?${param.name}=${value}`);
        expect(res.status, `${path}?${param.name}=${value}`).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe('invalid-argument');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(8);
  });
});

describe('docs/API.md', () => {
  it('is what `npm run docs:api` writes from the document (run it after changing a route or a schema)', async () => {
    const file = fileURLToPath(new URL('../../docs/API.md', import.meta.url));
    expect(readFileSync(file, 'utf8')).toBe(await apiMarkdownFile(doc, file));
  });
});
