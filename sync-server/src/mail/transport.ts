// Where mail goes: SMTP through nodemailer when SMTP_URL is set, otherwise one .eml file per
// mail under DATA_DIR/outbox/ (the raw MIME a mail client opens). Sends are retried with
// exponential backoff; a permanent SMTP refusal (5xx) is not retried.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** Names the .eml file in outbox mode. */
  fileStem: string;
}

export interface MailTransport {
  /** 'smtp' or 'outbox' (for the log). */
  kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

export function createMailTransport(options: { smtpUrl: string | undefined; outboxDir: string }): MailTransport {
  const message = (mail: OutgoingMail): Mail.Options => ({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers,
  });
  if (options.smtpUrl) {
    const smtp = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await smtp.sendMail(message(mail));
        return { messageId: info.messageId };
      },
      close: () => smtp.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await stream.sendMail(message(mail));
      mkdirSync(options.outboxDir, { recursive: true });
      const file = join(options.outboxDir, `${mail.fileStem.replace(/[^\w.-]+/g, '_')}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      return { messageId: info.messageId, file };
    },
    close: () => stream.close(),
  };
}

export interface RetryOptions {
  attempts: number;
  /** The first wait; each next one doubles. */
  baseDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseDelayMs: 2_000 };

/** A refusal that retrying cannot fix: SMTP 5xx for this recipient or message. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export async function sendWithRetry(
  transport: MailTransport,
  mail: OutgoingMail,
  retry: RetryOptions,
): Promise<{ ok: true; messageId: string; file?: string; attempts: number } | { ok: false; error: string; attempts: number }> {
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, ...(await transport.send(mail)), attempts: attempt };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (attempt >= retry.attempts || isPermanent(error)) return { ok: false, error: text, attempts: attempt };
      await sleep(retry.baseDelayMs * 2 ** (attempt - 1));
    }
  }
}
