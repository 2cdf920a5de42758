// HTTP hardening (body): the headers every answer carries, no caching of
// signed-in answers, 404 for a missing build file, 413 on a declared length before
// the body is read, invalid UTF-8 refused, and a client that goes away is not a
// server error in the log.
import { serve, type ServerType } from '@hono/node-server';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { LIMITS } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { createApp } from '../../sync-server/src/app.js';
import { createFirebaseVerifier } from '../../sync-server/src/auth/verifier.js';
import { MSG_INVALID_UTF8 } from '../../sync-server/src/http/validate.js';
import { mountSite } from '../../sync-server/src/routes/site-files.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, emulatorHost, type TestUser } from '../fixtures/auth.js';

/** Sends raw bytes on a fresh connection; resolves with the answer's head, or what came before the connection closed. */
function rawRequest(port: number, bytes: Buffer, { destroyAfterWrite = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (/\r\n\r\n/.test(answer)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(bytes, () => {
      // Once the server has the request and is waiting for the rest of the body.
      if (destroyAfterWrite) setTimeout(() => socket.destroy(), 200);
    });
  });
}

describe('HTTP hardening', () => {
  let dir: string;
  let server: ServerType;
  let url: string;
  let port: number;
  let ada: TestUser;
  const logged: string[] = [];
  let testStore: TestStore;
  beforeAll(async () => {
    const host = emulatorHost();
    dir = mkdtempSync(join(tmpdir(), 'crux-http-'));
    const site = join(dir, 'site');
    mkdirSync(join(site, 'assets'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>Crux</title><div id="root"></div>');
    writeFileSync(join(site, 'assets', 'app-123.js'), 'console.log(1);');
    testStore = await openTestStore();
    const { app } = createApp({
      store: testStore.store,
      verifier: createFirebaseVerifier(PROJECT_ID),
      log: (message) => logged.push(message),
      clientConfig: {
        firebase: { apiKey: 'k', authDomain: 'crux-test.firebaseapp.com', projectId: PROJECT_ID },
        authEmulatorHost: host,
        discordUrl: null,
        supportUrl: null,
      },
    });
    mountSite(app, site);
    ({ server, port } = await new Promise<{ server: ServerType; port: number }>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server: s, port: info.port }));
    }));
    url = `http://127.0.0.1:${port}`;
    ada = await createTestUser('Ada Headers');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close(() => resolve());
    });
    await testStore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every answer carries a strict CSP, nosniff, a Referrer-Policy and no framing', async () => {
    for (const path of ['/', '/topics/abc', '/api/topics', '/api/health', '/assets/app-123.js', '/api/nothing']) {
      const res = await fetch(url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      // The app's Auth emulator (dev and tests) and Firebase's endpoints (production).
      expect(csp).toMatch(new RegExp(`connect-src [^;]*http://${emulatorHost().replace(/\./g, '\\.')}`));
      expect(csp).toContain('https://identitytoolkit.googleapis.com');
      expect(csp).toContain('https://securetoken.googleapis.com');
      expect(csp).toMatch(/frame-src [^;]*https:\/\/crux-test\.firebaseapp\.com/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('signed-in API answers are never cached; the same call signed out is not marked private', async () => {
    const signedIn = await apiClient(url, ada.token).get('/topics');
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    expect(signedIn.headers.get('vary')).toMatch(/authorization/i);
    const refused = await apiClient(url, 'not-a-token').get('/topics');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('a missing build file answers 404, not the app page; pages still get the app', async () => {
    for (const path of ['/assets/index-old.js', '/assets/gone.css', '/workbox-old.js', '/missing-icon.png']) {
      const res = await fetch(url + path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('<div id="root">');
    }
    const page = await fetch(`${url}/topics/some-topic`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(`${url}/assets/app-123.js`)).status).toBe(200);
  });

  it('a declared body over the limit is refused with 413 before any of it is sent', async () => {
    const head = [
      'POST /api/topics HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${ada.token}`,
      'Content-Type: application/json',
      `Content-Length: ${LIMITS.bodyBytes * 100}`,
      '',
      '',
    ].join('\r\n');
    // Only the headers are sent: the answer must not wait for the 100 MiB.
    const answer = await rawRequest(port, Buffer.from(head));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // Just over the limit, sent in full on a kept-alive connection: 413 with the usual body.
    const res = await apiClient(url, ada.token).post('/topics', { title: 'x', categories: ['Science'], pad: 'p'.repeat(LIMITS.bodyBytes) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: MSG.bodyTooLarge, code: 'resource-exhausted' });
  });

  it.each([
    ['a REST write', '/api/topics'],
    ['a sync push', '/api/sync/topics/push'],
  ])('a chunked body over the limit with no Content-Length is refused with 413 (%s)', async (_name, path) => {
    // Raw bytes, so the request certainly has no Content-Length: only Transfer-Encoding: chunked.
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${ada.token}`,
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      '',
      '',
    ].join('\r\n');
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const piece = 'p'.repeat(64 * 1024);
    const pieces = Math.ceil((LIMITS.bodyBytes + 1) / piece.length) + 1;
    const body = [
      chunk('{"title":"x","categories":["Science"],"pad":"'),
      ...Array<string>(pieces).fill(chunk(piece)),
      chunk('"}'),
      '0\r\n\r\n',
    ];
    expect(head).not.toMatch(/content-length/i);
    const answer = await rawRequest(port, Buffer.from(head + body.join(''), 'latin1'));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('a body that is not valid UTF-8 is refused with 400, not stored with replacement characters', async () => {
    const body = Buffer.concat([
      Buffer.from('{"title":"Bad '),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(' bytes","categories":["Science"]}'),
    ]);
    const res = await fetch(`${url}/api/topics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: MSG_INVALID_UTF8, code: 'invalid-argument' });
    const list = await apiClient(url).get('/topics?sort=new');
    expect(JSON.stringify(list.body)).not.toContain('\uFFFD');
  });

  it('a client that goes away mid-body is not logged as a server error', async () => {
    const head = [
      'POST /api/topics HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${ada.token}`,
      'Content-Type: application/json',
      'Content-Length: 1000',
      '',
      '{"title":"half',
    ].join('\r\n');
    await rawRequest(port, Buffer.from(head), { destroyAfterWrite: true });
    // The server notices the closed socket when it reads the body; give it that moment.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(logged).toEqual([]);
  });
});
