// Reading input at the edge: JSON bodies and query strings through zod schemas,
// with one clear message for the person (the first problem found).
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { badRequest } from '../../../shared/errors.js';

export async function readJson<S extends z.ZodType>(c: Context, schema: S, { optional = false } = {}): Promise<z.output<S>> {
  const body = await readJsonBody(c);
  if (body === undefined && !optional) {
    throw badRequest('The request body is empty; send a JSON object.');
  }
  return parse(schema, body === undefined ? {} : body);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; bytes that are not valid UTF-8 are refused, never replaced with "\uFFFD". */
export async function readBodyText(c: Context): Promise<string> {
  const incoming = unreadIncoming(c);
  const bytes = incoming ? await readAll(incoming) : await c.req.arrayBuffer();
  try {
    return UTF8.decode(bytes);
  } catch {
    throw badRequest(MSG_INVALID_UTF8);
  }
}

/**
 * Node's request behind @hono/node-server when its body of a declared length has not been touched:
 * read straight from it, since `c.req.arrayBuffer()` makes @hono/node-server build a full web Request
 * and a stream over it first (a tenth of a `POST /api/responses`'s CPU, profiled). A chunked
 * body has been read by the body limit (http/body-limit.ts), which hands on a buffered Request: that one
 * is read through Hono as before.
 */
function unreadIncoming(c: Context): IncomingMessage | null {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage) || c.req.raw.headers.get('content-length') === null) return null;
  if (incoming.readableDidRead || incoming.readableFlowing !== null || incoming.readableEnded) return null;
  return incoming;
}

async function readAll(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const MSG_INVALID_UTF8 = 'The request body is not valid UTF-8 text.';

/** The parsed JSON body (undefined when empty), refused when it is not JSON or not valid Unicode. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await readBodyText(c);
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest(MSG.invalidJson);
  }
  // JSON may spell half of an emoji ("\ud83d"); SQLite would keep it as broken UTF-8.
  if (hasLoneSurrogate(body)) throw badRequest('The request contains text that is not valid Unicode.');
  return body;
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parse(schema, c.req.query());
}

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('The request body must be a JSON object.');
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(describe(result.error.issues[0]));
}

function describe(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'The request is not valid.';
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}.`;
  // zod's own texts for a missing required field are generic; name the field.
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
    return `${issue.path.join('.') || 'The request'} is missing or has the wrong type.`;
  }
  return issue.message;
}

const LONE_SURROGATE = /\p{Cs}/u;

/** Walks the parsed body without recursion (a 1 MiB body can nest 500,000 deep). */
export function hasLoneSurrogate(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
