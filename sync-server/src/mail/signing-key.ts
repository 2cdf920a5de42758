// The key that signs unsubscribe tokens: MAIL_SIGNING_KEY in production (the same on every
// server), else generated once and kept in DATA_DIR/mail-signing.key (mode 600) so local
// links keep working across restarts.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SIGNING_KEY_FILE = 'mail-signing.key';

export function loadSigningKey(options: { configured: string | undefined; dataDir: string }): Buffer {
  if (options.configured !== undefined && options.configured.trim() !== '') {
    const key = options.configured.trim();
    if (key.length < 32) throw new Error('MAIL_SIGNING_KEY must be at least 32 characters (e.g. `openssl rand -hex 32`).');
    return Buffer.from(key, 'utf8');
  }
  const file = join(options.dataDir, SIGNING_KEY_FILE);
  mkdirSync(options.dataDir, { recursive: true });
  try {
    // 'wx': only the first process creates it; a second one reads what the first wrote.
    writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  if (key.length < 32) throw new Error(`${file} holds no usable key; delete it to make a new one.`);
  return Buffer.from(key, 'utf8');
}
