// The unsubscribe signing key. Without MAIL_SIGNING_KEY a key is generated into DATA_DIR,
// which is right locally; behind a public PUBLIC_URL the server says so clearly at start (another
// server, or a lost data folder, would refuse every link already mailed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLoopbackUrl, loadSigningKey, signingKeyWarning } from '../../sync-server/src/mail/signing-key.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'crux-key-'));
  dirs.push(dir);
  return dir;
};

describe('the generated signing key behind a public address', () => {
  it.each([
    ['http://localhost:8080', true],
    ['http://crux.localhost', true],
    ['http://127.0.0.1:8080', true],
    ['http://127.1.2.3', true],
    ['http://[::1]:8080', true],
    ['https://crux.example', false],
    ['http://10.0.0.5:8080', false],
    ['https://localhost.example.com', false],
  ])('%s is loopback: %s', (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });

  it('warns, once, when the key is generated and PUBLIC_URL is public', () => {
    const warnings: string[] = [];
    const key = loadSigningKey({
      configured: undefined,
      dataDir: dataDir(),
      publicUrl: 'https://crux.example',
      warn: (m) => warnings.push(m),
    });
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('MAIL_SIGNING_KEY is not set');
    expect(warnings[0]).toContain('https://crux.example');
    expect(warnings[0]).toContain('openssl rand -hex 32');
  });

  it('is quiet with a configured key, a local PUBLIC_URL or none (the server’s own address)', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    loadSigningKey({ configured: 'k'.repeat(40), dataDir: dataDir(), publicUrl: 'https://crux.example', warn });
    loadSigningKey({ configured: undefined, dataDir: dataDir(), publicUrl: 'http://localhost:8080', warn });
    loadSigningKey({ configured: undefined, dataDir: dataDir(), publicUrl: undefined, warn });
    loadSigningKey({ configured: '  ', dataDir: dataDir(), publicUrl: 'http://127.0.0.1:8080', warn });
    expect(warnings).toEqual([]);
    expect(signingKeyWarning({ configured: '   ', publicUrl: 'https://crux.example' })).toMatch(/^Warning: MAIL_SIGNING_KEY/);
  });
});
