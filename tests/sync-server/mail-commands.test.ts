// The commands as a developer runs them, against the real server's SQLite file.
// `mail:weekly -- --dry-run` prints who would get what and sends nothing; `mail:weekly` writes the
// .eml into DATA_DIR/outbox/, whose List-Unsubscribe URL then works as a bare RFC 8058 POST.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { parseMime, partOf, startMailTestServer, type MailTestServer } from '../fixtures/mail.js';

const KEY = 'commands-test-key-0123456789abcdef0123456789';
let server: MailTestServer;
let ada: TestUser;

beforeAll(async () => {
  let bob: TestUser;
  [server, ada, bob] = await Promise.all([
    startMailTestServer({ signingKey: Buffer.from(KEY) }),
    createTestUser('Ada Command'),
    createTestUser('Bob Command'),
  ]);
  const topic = await apiClient(server.url, ada.token).post('/topics', { title: 'Run it from the shell?', categories: ['Technology'] });
  expect(
    (await apiClient(server.url, bob.token).post('/responses', { topic_id: topic.body.id, type: 'for', content: 'Yes, npm run.' })).status,
  ).toBe(201);
}, 60_000);
afterAll(() => server?.stop());

/**
 * Runs the command and gives its output (rejects on a non-zero exit). Not spawnSync: the server
 * runs in this process, and a blocked event loop let its keep-alive timer close the connection
 * the next request was being sent on (ECONNRESET on a loaded machine).
 */
async function mailWeekly(...args: string[]): Promise<string> {
  const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/mail-weekly.ts', ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      DATA_DIR: server.dir,
      ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
      PUBLIC_URL: server.url,
      MAIL_SIGNING_KEY: KEY,
      SMTP_URL: '',
    },
  });
  return run.stdout;
}

describe('npm run mail:weekly', () => {
  it('--dry-run prints who would get what and sends nothing; then a real run writes the outbox', { timeout: 60_000 }, async () => {
    const dry = await mailWeekly('--dry-run');
    expect(dry).toContain(`${ada.email} (${ada.uid}): "Your week on Crux: 1 new reply"`);
    expect(dry).toMatch(/nothing new, no mail/);
    expect(dry).toContain('1 of 2 subscribed users would get a mail. Nothing was sent.');
    const outbox = join(server.dir, 'outbox');
    expect(existsSync(outbox)).toBe(false);

    expect(await mailWeekly()).toContain('Weekly summary: 1 sent, 0 failed, 1 with nothing new.');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    const mail = parseMime(readFileSync(join(outbox, files[0]!), 'utf8'));
    expect(mail.headers.get('to')).toContain(ada.email);
    expect(partOf(mail, 'text/plain')!.body).toContain('Yes, npm run.');
    expect(partOf(mail, 'text/html')!.body).toContain(`${server.url}/topics/`);

    // The header's URL, POSTed as a mail client does: no cookie, no Authorization.
    const url = /^<([^>]+)>$/.exec(mail.headers.get('list-unsubscribe')!)![1]!;
    expect(url.startsWith(`${server.url}/api/unsubscribe?token=`)).toBe(true);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: mail.headers.get('list-unsubscribe-post')!,
    });
    expect(res.status).toBe(200);
    expect((await apiClient(server.url, ada.token).get('/users/preferences')).body).toEqual({ receive_weekly_summary: false });

    // Sent once: a second run has nothing new for anyone and Ada is now opted out.
    expect(await mailWeekly()).toContain('Weekly summary: 0 sent, 0 failed');
    expect(readdirSync(outbox)).toHaveLength(1);
  });
});
