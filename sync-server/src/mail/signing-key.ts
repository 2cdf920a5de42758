// The key that signs unsubscribe tokens: MAIL_SIGNING_KEY in production (the same on every
// server), else generated once and kept in DATA_DIR/mail-signing.key (mode 600) so local
// links keep working across restarts.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logger } from '../observe/logger.js';

export const SIGNING_KEY_FILE = 'mail-signing.key';

/** True for a URL whose host is this machine only (localhost, *.localhost, 127.0.0.0/8, ::1). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

/**
 * The start-up warning for a generated key behind a public address, or null. A key generated into
 * one server's data folder is not the key of another server behind the same address (their mailed
 * links fail on each other), and a lost data folder voids every link already mailed.
 */
export function signingKeyWarning(options: { configured: string | undefined; publicUrl: string | undefined }): string | null {
  if (options.configured !== undefined && options.configured.trim() !== '') return null;
  if (options.publicUrl === undefined || isLoopbackUrl(options.publicUrl)) return null;
  return (
    `Warning: MAIL_SIGNING_KEY is not set, so unsubscribe links are signed with a key generated into DATA_DIR/${SIGNING_KEY_FILE}, ` +
    `while PUBLIC_URL (${options.publicUrl}) is not a local address. Set MAIL_SIGNING_KEY (e.g. \`openssl rand -hex 32\`), ` +
    'the same on every server: otherwise links mailed by one server are refused by another, and a lost data folder voids every link mailed.'
  );
}

export function loadSigningKey(options: {
  configured: string | undefined;
  dataDir: string;
  /** PUBLIC_URL: a generated key behind a public address is warned about (signingKeyWarning). */
  publicUrl?: string | undefined;
  warn?: (message: string) => void;
}): Buffer {
  const warning = signingKeyWarning({ configured: options.configured, publicUrl: options.publicUrl });
  if (warning) (options.warn ?? ((message) => logger.warn(message)))(warning);
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
