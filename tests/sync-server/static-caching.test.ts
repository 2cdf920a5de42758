// First load: the built PWA's files go out precompressed (.br/.gz chosen by
// Accept-Encoding, Vary: Accept-Encoding), hashed assets immutable, the files that name the
// build (index.html, sw.js, the manifest) revalidated, JSON API answers compressed on the fly
// above a small size, and a missing build file still 404s. Over a temporary static folder with
// fake hashed files, so no build is needed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { chooseEncoding, compressText } from '../../sync-server/src/http/compression.js';
import { mountSite } from '../../sync-server/src/routes/site-files.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const APP_JS = `console.log(${JSON.stringify('crux '.repeat(400))});\n`;
const INDEX_HTML = '<!doctype html><title>Crux</title><div id="root"></div><script type="module" src="/assets/index-AbC123xy.js"></script>';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const noVerifier: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens in this test')) };

describe('static files: precompressed, cached by kind', () => {
  let dir: string;
  let testStore: TestStore;
  let request: (path: string, headers?: Record<string, string>) => Promise<Response>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-static-'));
    const site = join(dir, 'site');
    mkdirSync(join(site, 'assets'), { recursive: true });
    const write = (path: string, text: string, compressed = true) => {
      writeFileSync(join(site, path), text);
      if (!compressed) return;
      writeFileSync(join(site, `${path}.br`), brotliCompressSync(text));
      writeFileSync(join(site, `${path}.gz`), gzipSync(text));
    };
    write('index.html', INDEX_HTML);
    write('assets/index-AbC123xy.js', APP_JS);
    write('assets/index-Zz98yy77.css', `body{color:red}${' '.repeat(2000)}`);
    write('sw.js', `self.__WB_MANIFEST=[];${'//sw\n'.repeat(400)}`, false);
    write('workbox-9c191d2f.js', `// workbox\n${'x;'.repeat(100)}`);
    write('manifest.webmanifest', '{"name":"Crux"}');
    writeFileSync(join(site, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    testStore = await openTestStore();
    const { app } = createApp({ store: testStore.store, verifier: noVerifier, log: () => {} });
    mountSite(app, site);
    request = async (path, headers = {}) => app.request(path, { headers });
  });

  afterAll(async () => {
    await testStore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br', 'br'],
  ])('a hashed script with Accept-Encoding %j goes out as %s, immutable', async (accept, encoding) => {
    const res = await request('/assets/index-AbC123xy.js', { 'Accept-Encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe(encoding);
    expect(res.headers.get('Vary')).toMatch(/accept-encoding/i);
    expect(res.headers.get('Cache-Control')).toBe(IMMUTABLE);
    expect(res.headers.get('Content-Type')).toMatch(/javascript/);
    const body = Buffer.from(await res.arrayBuffer());
    expect((encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString()).toBe(APP_JS);
  });

  it('without Accept-Encoding a script goes out as it is, still with Vary', async () => {
    const res = await request('/assets/index-AbC123xy.js');
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Vary')).toMatch(/accept-encoding/i);
    expect(await res.text()).toBe(APP_JS);
  });

  it('stylesheets under /assets are precompressed and immutable too', async () => {
    const res = await request('/assets/index-Zz98yy77.css', { 'Accept-Encoding': 'gzip, br' });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Cache-Control')).toBe(IMMUTABLE);
  });

  it.each(['/', '/index.html'])('%s is revalidated on every visit (no-cache) and compressed', async (path) => {
    const res = await request(path, { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Vary')).toMatch(/accept-encoding/i);
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(INDEX_HTML);
  });

  it('a page of the app (the shell) is no-cache and compressed as the client asks', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await request('/topics/some-topic', { 'Accept-Encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toMatch(/text\/html/);
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
      expect(res.headers.get('Content-Encoding')).toBe(encoding);
      expect(res.headers.get('Vary')).toMatch(/accept-encoding/i);
      const body = Buffer.from(await res.arrayBuffer());
      const text = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
      expect(text.toString()).toBe(INDEX_HTML);
    }
  });

  it('the service worker and the manifest are no-cache; Workbox’s hashed runtime is immutable', async () => {
    const sw = await request('/sw.js', { 'Accept-Encoding': 'gzip, br' });
    expect(sw.headers.get('Cache-Control')).toBe('no-cache');
    // No .br beside it: compressed on the fly.
    expect(sw.headers.get('Content-Encoding')).toBe('br');
    expect(sw.headers.get('Vary')).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(Buffer.from(await sw.arrayBuffer())).toString()).toMatch(/^self\.__WB_MANIFEST/);
    const manifest = await request('/manifest.webmanifest', { 'Accept-Encoding': 'gzip' });
    expect(manifest.headers.get('Cache-Control')).toBe('no-cache');
    const workbox = await request('/workbox-9c191d2f.js', { 'Accept-Encoding': 'gzip' });
    expect(workbox.headers.get('Cache-Control')).toBe(IMMUTABLE);
    expect(workbox.headers.get('Content-Encoding')).toBe('gzip');
  });

  it('an icon is neither compressed nor immutable', async () => {
    const res = await request('/icon-192.png', { 'Accept-Encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=3600');
  });

  it.each(['/assets/index-gone0000.js', '/assets/missing.css', '/nope.js', '/assets/index-AbC123xy.js.map'])(
    'a missing build file %s is still a 404, not the shell',
    async (path) => {
      const res = await request(path, { 'Accept-Encoding': 'gzip, br' });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('<!doctype html>');
    },
  );

  it('a small JSON API answer goes out as it is (compressing it would cost more than it saves)', async () => {
    const small = await request('/api/health', { 'Accept-Encoding': 'gzip, br' });
    expect(small.headers.get('Content-Encoding')).toBeNull();
    expect(await small.json()).toEqual({ ok: true });
  });

  it('a large JSON answer goes out as br or gzip and decodes to the same JSON', async () => {
    const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: `topic-${i}`, title: `A debate about item ${i}` })) };
    const { app } = createApp({ store: testStore.store, verifier: noVerifier, log: () => {} });
    app.get('/big.json', (c) => c.json(big));
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['', null],
    ] as const) {
      const res = await app.request('/big.json', { headers: accept ? { 'Accept-Encoding': accept } : {} });
      expect(res.headers.get('Content-Encoding')).toBe(encoding);
      expect(res.headers.get('Vary')).toMatch(/accept-encoding/i);
      const body = Buffer.from(await res.arrayBuffer());
      const text = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
      expect(JSON.parse(text.toString())).toEqual(big);
    }
  });

  it('on the API only the answers that can be large are compressed, and only above 8 KB', async () => {
    const app = new Hono().use(compressText());
    const page = (n: number) => ({
      items: Array.from({ length: n }, (_, i) => ({ id: `r-${i}`, content: `A response with some words ${i}` })),
    });
    app.get('/api/responses', (c) => c.json(page(400)));
    app.get('/api/sync/responses/pull', (c) => c.json(page(20)));
    app.get('/api/topics', (c) => c.json(page(400)));
    const accept = { 'Accept-Encoding': 'gzip, br' };
    const big = await app.request('/api/responses', { headers: accept });
    expect(big.headers.get('Content-Encoding')).toBe('br');
    expect(JSON.parse(brotliDecompressSync(Buffer.from(await big.arrayBuffer())).toString())).toEqual(page(400));
    const small = await app.request('/api/sync/responses/pull', { headers: accept });
    expect(small.headers.get('Content-Encoding')).toBeNull();
    expect(await small.json()).toEqual(page(20));
    // A hot small read: never buffered nor compressed, whatever its size.
    const list = await app.request('/api/topics', { headers: accept });
    expect(list.headers.get('Content-Encoding')).toBeNull();
    expect(await list.json()).toEqual(page(400));
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=1.0, br;q=0', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    ['br;q=0, gzip;q=0', null],
    [undefined, null],
  ])('chooseEncoding(%j) is %j', (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});
