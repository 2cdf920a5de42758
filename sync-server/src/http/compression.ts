// On-the-fly compression of text answers the build did not precompress: JSON API
// answers, robots.txt, the sitemap, and any static text file without a .br/.gz beside it.
// Brotli at a low quality (fast, still smaller than gzip) when the client takes it, else gzip.
// Small answers go out as they are (compressing them costs more than it saves), streams (SSE)
// are never buffered, and everything compressed or compressible says Vary: Accept-Encoding.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text types worth compressing; text/event-stream is left out on purpose (it must stream). */
const COMPRESSIBLE =
  /^\s*(?:application\/(?:json|javascript|xml|manifest\+json)|text\/(?:html|css|plain|javascript|xml)|image\/svg\+xml)(?:[;\s]|$)/i;

export type Encoding = 'br' | 'gzip';

/** The best encoding the Accept-Encoding header allows (q=0 refuses), br before gzip; null for none. */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return null;
}

export function appendVary(headers: Headers, value: string): void {
  const current = headers.get('Vary');
  if (
    current === '*' ||
    current
      ?.toLowerCase()
      .split(/\s*,\s*/)
      .includes(value.toLowerCase())
  )
    return;
  headers.set('Vary', current ? `${current}, ${value}` : value);
}

export interface CompressionOptions {
  /** Answers smaller than this (bytes) are sent as they are. Default 1,024. */
  threshold?: number;
  /**
   * The same for /api/ answers. Default 8 KB: measured with autocannon (50 connections, a 1.8 KB
   * `GET /api/topics?sort=hot`), compressing every JSON answer cost about half the throughput
   * with brotli and a fifth with gzip, for a few hundred bytes saved; above 8 KB (sync pulls,
   * long pages) the bytes saved are worth it.
   */
  apiThreshold?: number;
  /**
   * The API paths whose answers can be large (pages of responses and sources, the leaderboard):
   * only these are read and measured. Sync pulls are left out: buffering them to compress broke
   * a replication's recovery from a server restart mid-pull (tests/app/sync-resilience.test.ts). Every other API answer passes untouched, so the hot small reads
   * (the topic list, a topic, the health check) pay nothing at all.
   */
  largeApiPaths?: RegExp;
}

/** The default size from which an /api/ answer is compressed (CompressionOptions.apiThreshold). */
export const API_THRESHOLD = 8 * 1024;

const brotliOptions = (size: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});
const GZIP_OPTIONS = { level: 6 };

/** Each kept answer's compressed copies, made once (the answer is kept as the same bytes object until it changes). */
const compressedKept = new WeakMap<Uint8Array, Map<Encoding, Promise<Buffer>>>();

/**
 * A kept JSON answer (bytes serialised once per change: a page of roots) as a Response, compressed as
 * compressText would compress it but once per kept answer and encoding rather than per request
 * (brotli took 16 ms of each request for a 650 KB page). The middleware leaves an answer
 * that already has a Content-Encoding alone.
 */
export async function keptJson(c: Context, bytes: Uint8Array<ArrayBuffer>): Promise<Response> {
  const encoding = bytes.byteLength < API_THRESHOLD ? null : chooseEncoding(c.req.header('Accept-Encoding'));
  if (!encoding) return c.body(bytes, 200, { 'Content-Type': 'application/json' });
  let copies = compressedKept.get(bytes);
  if (!copies) compressedKept.set(bytes, (copies = new Map()));
  let compressed = copies.get(encoding);
  if (!compressed) {
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    compressed = encoding === 'br' ? brotli(body, brotliOptions(body.length)) : gzipAsync(body, GZIP_OPTIONS);
    copies.set(encoding, compressed);
  }
  const body = await compressed;
  return c.body(new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/json',
    'Content-Encoding': encoding,
    'Content-Length': String(body.length),
    Vary: 'Accept-Encoding',
  });
}

const LARGE_API_PATHS = /^\/api\/(?:responses(?:\/|$)|sources(?:\/|$)|users\/leaderboard$)/;

export function compressText(options: CompressionOptions = {}): MiddlewareHandler {
  const fileThreshold = options.threshold ?? 1024;
  const apiThreshold = options.apiThreshold ?? API_THRESHOLD;
  const largeApiPaths = options.largeApiPaths ?? LARGE_API_PATHS;
  return async (c, next) => {
    const isApi = c.req.path.startsWith('/api/');
    if (isApi && !largeApiPaths.test(c.req.path)) return next();
    const threshold = isApi ? apiThreshold : fileThreshold;
    await next();
    const res = c.res;
    const type = res.headers.get('Content-Type');
    if (!res.body || !type || !COMPRESSIBLE.test(type) || c.req.method === 'HEAD' || res.status === 206) return;
    if (res.headers.has('Content-Encoding') || /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    appendVary(res.headers, 'Accept-Encoding');
    const length = Number(res.headers.get('Content-Length') ?? NaN);
    if (length < threshold) return;
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const body = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.length < threshold) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const compressed = encoding === 'br' ? await brotli(body, brotliOptions(body.length)) : await gzipAsync(body, GZIP_OPTIONS);
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(compressed.length));
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    // c.res = … in Hono merges the old headers back in: replace the whole answer.
    c.res = undefined;
    c.res = new Response(compressed, { status: res.status, headers });
  };
}
