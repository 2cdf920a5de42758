// A topic shown on another site: a read-only page made for an <iframe> (/embed/topics/{id}: the
// balance, the strongest case on each side, the first responses, links that open Crux in a new tab),
// the script a host page includes to place and size such frames (/embed.js), the oEmbed endpoint
// platforms read to embed a pasted link (/api/oembed), and the share card's picture
// (/api/topics/{id}/card.png). All made on the server, no app JavaScript; all cached briefly, with an
// ETag so a crawler asking again gets a 304. The embed page alone may be framed: by EMBED_FRAME_ANCESTORS.
import { markdownPlainText } from '../../../shared/markdown.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono, type Context } from 'hono';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { badRequest, CruxError, notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { truncate } from '../../../shared/rules/truncate.js';
import type { TopicSummaries, TopicSummary } from '../domain/topic-summary.js';
import type { AppEnv } from '../http/auth.js';
import { LRUCache } from 'lru-cache';
import { apiRoute, serve } from '../openapi/route.js';
import { balanceCardPng, CARD_HEIGHT, CARD_WIDTH } from './card-image.js';
import { topicIdParams } from './topics.js';

/** Short enough that a vote shows within minutes, long enough that a crawl's burst reads once. */
export const EMBED_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';
/** The oEmbed frame's size when the consumer sets no maximum. */
const OEMBED_WIDTH = 600;
const OEMBED_HEIGHT = 480;
const EXCERPT_CHARS = 220;

export interface EmbedOptions {
  /** PUBLIC_URL: the origin links and frames name (else the request's own). */
  publicUrl?: string | undefined;
  /** EMBED_FRAME_ANCESTORS: the CSP frame-ancestors sources of the embed page (default `*`). */
  frameAncestors: string;
}

/** EMBED_FRAME_ANCESTORS: the sites that may frame a topic's embed (CSP source list); unset: any. */
export function readEmbedFrameAncestors(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.EMBED_FRAME_ANCESTORS?.trim()
    .replace(/[;,\r\n]+/g, ' ')
    .replace(/\s+/g, ' ');
  return value || '*';
}

const originOf = (c: Context, options: EmbedOptions) => options.publicUrl ?? new URL(c.req.url).origin;
export const topicUrl = (origin: string, topicId: string) => `${origin}/topics/${encodeURIComponent(topicId)}`;
export const embedUrl = (origin: string, topicId: string) => `${origin}/embed/topics/${encodeURIComponent(topicId)}`;
export const cardImageUrl = (origin: string, topicId: string) => `${origin}/api/topics/${encodeURIComponent(topicId)}/card.png`;

const strongEtag = (body: string | Uint8Array) => `"${createHash('sha1').update(body).digest('base64url')}"`;

/** True when the caller's copy (If-None-Match) is `etag`: the answer is a 304. */
export function isFresh(c: Context, etag: string): boolean {
  const header = c.req.header('If-None-Match');
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** `body` with its ETag and cache lifetime, or a 304 when the caller has it. */
function cachedAnswer(c: Context, answer: string | Uint8Array, headers: Record<string, string>): Response {
  // hono's html helper makes String objects, which hashing refuses: a primitive string, then.
  const body = answer instanceof Uint8Array ? answer : String(answer);
  const etag = strongEtag(body);
  const cache = { ETag: etag, 'Cache-Control': EMBED_CACHE_CONTROL };
  if (isFresh(c, etag)) return c.body(null, 304, cache);
  const bytes = typeof body === 'string' ? body : new Uint8Array(body);
  return c.body(bytes, 200, { ...headers, ...cache });
}

function text(markup: HtmlEscapedString | Promise<HtmlEscapedString>): HtmlEscapedString {
  if (markup instanceof Promise) throw new Error('embed markup is built from strings only');
  return markup;
}

// The first words as they read, without the Markdown marks (an excerpt is cut mid-text: no formatting).
const excerpt = (content: string) => truncate(markdownPlainText(content), EXCERPT_CHARS);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

// ---- the embed page ----

const EMBED_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#111827;--muted:#4b5563;--line:#e5e7eb;--agree:#15803d;--against:#b91c1c;--unsure:#64748b;--link:#1d4ed8}
@media (prefers-color-scheme:dark){:root{--bg:#111827;--fg:#f3f4f6;--muted:#cbd5e1;--line:#374151;--agree:#4ade80;--against:#f87171;--unsure:#94a3b8;--link:#93c5fd}}
*{box-sizing:border-box}html,body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{padding:16px;border:1px solid var(--line);border-radius:12px}
h1{font-size:1.2rem;margin:0 0 8px}h2{font-size:.95rem;margin:16px 0 6px}
a{color:var(--link)}.muted{color:var(--muted)}
.bar{display:block;width:100%;height:12px;border-radius:6px;overflow:hidden}
.bar .agree{fill:var(--agree)}.bar .against{fill:var(--against)}.bar .unsure{fill:var(--unsure)}.bar .empty{fill:var(--line)}
.counts{margin:6px 0 0;font-size:.9rem}.sides{display:grid;gap:12px;grid-template-columns:repeat(auto-fit,minmax(220px,1fr))}
ul{margin:0;padding:0;list-style:none}li{padding:8px 0;border-top:1px solid var(--line)}
.side{font-weight:600;font-size:.8rem;text-transform:uppercase;letter-spacing:.03em}.for{color:var(--agree)}.against{color:var(--against)}.neutral{color:var(--unsure)}
.by{font-size:.85rem;color:var(--muted)}
footer{display:flex;flex-wrap:wrap;gap:12px;margin-top:16px}
footer a{display:inline-flex;align-items:center;min-height:44px;padding:0 14px;border-radius:8px;border:1px solid var(--line);text-decoration:none;font-weight:600}
footer a.join{background:var(--link);color:var(--bg);border-color:var(--link)}
`.trim();

/** Tells the host page (its sizing script) how tall the content is (not the frame: it may be taller), whenever that changes. */
const EMBED_SCRIPT = `(function(){var last=0,id=document.documentElement.getAttribute('data-topic');function send(){var h=Math.ceil(document.body.getBoundingClientRect().height);if(h!==last&&window.parent!==window){last=h;window.parent.postMessage({type:'crux-embed-height',topic:id,height:h},'*');}}if(window.ResizeObserver)new ResizeObserver(send).observe(document.body);window.addEventListener('load',send);send();})();`;

const cspHash = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
const STYLE_HASH = cspHash(EMBED_CSS);
const SCRIPT_HASH = cspHash(EMBED_SCRIPT);

/** The embed page's own policy: only its inline style and script, framed by `frameAncestors`. */
export function embedContentSecurityPolicy(frameAncestors: string): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `script-src ${SCRIPT_HASH}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const SIDE_LABEL = { for: 'For', against: 'Against', neutral: 'Neutral' } as const;

function balanceBar({ agree, disagree, unsure }: TopicSummary['stances']): HtmlEscapedString {
  const total = agree + disagree + unsure;
  const label = `${agree} agree, ${unsure} unsure, ${disagree} disagree`;
  if (total === 0)
    return text(
      html`<svg class="bar" viewBox="0 0 100 4" preserveAspectRatio="none" role="img" aria-label="${label}">
        <rect class="empty" width="100" height="4" />
      </svg>`,
    );
  const a = (100 * agree) / total;
  const u = (100 * unsure) / total;
  const d = 100 - a - u;
  return text(
    html`<svg class="bar" viewBox="0 0 100 4" preserveAspectRatio="none" role="img" aria-label="${label}">
      <rect class="agree" x="0" width="${a.toFixed(2)}" height="4" />
      <rect class="unsure" x="${a.toFixed(2)}" width="${u.toFixed(2)}" height="4" />
      <rect class="against" x="${(a + u).toFixed(2)}" width="${d.toFixed(2)}" height="4" />
    </svg>`,
  );
}

function caseList(side: 'for' | 'against', items: TopicSummary['strongest']['for']): HtmlEscapedString {
  const heading = side === 'for' ? 'Strongest case for' : 'Strongest case against';
  const body =
    items.length === 0
      ? html`<p class="muted">No argument has support from its own side yet.</p>`
      : html`<ul>
          ${items.map((item) => html`<li><span>${excerpt(item.content)}</span>${byline(item.username)}</li>`)}
        </ul>`;
  return text(
    html`<section aria-labelledby="case-${side}">
      <h2 id="case-${side}" class="${side}">${heading}</h2>
      ${body}
    </section>`,
  );
}

const byline = (username: string | null) => (username ? html` <span class="by">— ${username}</span>` : '');

/** The embed page of a topic (escaped throughout: every text is a participant's). */
export function embedPage(summary: TopicSummary, origin: string): string {
  const { topic, stances } = summary;
  const url = topicUrl(origin, topic.id);
  const responses =
    summary.firstResponses.length === 0
      ? html`<p class="muted">No responses yet: be the first.</p>`
      : html`<ul>
          ${summary.firstResponses.map(
            (r) =>
              html`<li>
                <span class="side ${r.type}">${SIDE_LABEL[r.type]}</span> <span>${excerpt(r.content)}</span>${byline(r.username)}
              </li>`,
          )}
        </ul>`;
  return text(
    html`<!doctype html>
      <html lang="en" data-topic="${topic.id}">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <title>${topic.title} – Crux</title>
          <link rel="canonical" href="${url}" />
          ${raw(`<style>${EMBED_CSS}</style>`)}
        </head>
        <body>
          <main>
            <h1><a href="${url}" target="_blank" rel="noopener">${topic.title}</a></h1>
            <section aria-label="Balance of stances">
              ${balanceBar(stances)}
              <p class="counts">
                ${stances.agree} agree · ${stances.disagree} disagree · ${stances.unsure} unsure ·
                ${plural(topic.responses_count, 'response', 'responses')}
              </p>
            </section>
            <div class="sides">${caseList('for', summary.strongest.for)}${caseList('against', summary.strongest.against)}</div>
            <section aria-labelledby="first-responses">
              <h2 id="first-responses">First responses</h2>
              ${responses}
            </section>
            <footer>
              <a class="join" href="${url}" target="_blank" rel="noopener">Join the debate on Crux</a>
              <a href="${url}" target="_blank" rel="noopener">Sign in</a>
            </footer>
          </main>
          ${raw(`<script>${EMBED_SCRIPT}</script>`)}
        </body>
      </html>`,
  );
}

/** What a missing, deleted or moderated topic's embed says: nothing of its text. */
const UNAVAILABLE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Crux</title><style>${EMBED_CSS}</style></head><body><main><p>This debate is not available.</p></main></body></html>`;

// ---- the host page's sizing script ----

/**
 * The host page's script: an iframe for every `<div data-crux-topic="ID">`, and each frame of this
 * origin (its own, or oEmbed's `data-crux-frame`) sized to the height its page reports. Messages from
 * any other origin, or from a window that is none of these frames, are ignored.
 */
export function embedScript(origin: string): string {
  return `(function(){'use strict';
var ORIGIN=${JSON.stringify(origin)};
function mount(el){if(el.getAttribute('data-crux-mounted'))return;var id=el.getAttribute('data-crux-topic');if(!id)return;el.setAttribute('data-crux-mounted','1');
var f=document.createElement('iframe');f.src=ORIGIN+'/embed/topics/'+encodeURIComponent(id);f.title=el.getAttribute('data-crux-title')||'A debate on Crux';
f.setAttribute('data-crux-frame',id);f.style.cssText='display:block;width:100%;max-width:${OEMBED_WIDTH + 40}px;height:${OEMBED_HEIGHT}px;border:0';el.appendChild(f);}
function scan(){var els=document.querySelectorAll('[data-crux-topic]');for(var i=0;i<els.length;i++)mount(els[i]);}
window.addEventListener('message',function(e){if(e.origin!==ORIGIN)return;var d=e.data;if(!d||d.type!=='crux-embed-height'||typeof d.height!=='number'||!isFinite(d.height))return;
var fs=document.querySelectorAll('iframe[data-crux-frame]');for(var i=0;i<fs.length;i++){if(fs[i].contentWindow===e.source)fs[i].style.height=Math.max(80,Math.min(5000,Math.ceil(d.height)))+'px';}});
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',scan);else scan();})();
`;
}

/** The site's routes: /embed/topics/{id} and /embed.js. */
export function embedSiteRoutes(summaries: TopicSummaries, options: EmbedOptions) {
  const csp = embedContentSecurityPolicy(options.frameAncestors);
  return new Hono<AppEnv>()
    .get('/embed.js', (c) => cachedAnswer(c, embedScript(originOf(c, options)), { 'Content-Type': 'text/javascript; charset=utf-8' }))
    .get('/embed/topics/:id', async (c) => {
      // The page's own policy; security-headers.ts leaves an /embed/ answer's policy as it is.
      c.header('Content-Security-Policy', csp);
      const summary = await summaries.get(c.req.param('id'));
      if (!summary) return c.body(UNAVAILABLE_PAGE, 404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
      return cachedAnswer(c, embedPage(summary, originOf(c, options)), { 'Content-Type': 'text/html; charset=utf-8' });
    });
}

// ---- the API: oEmbed and the card image ----

const dimension = (name: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,4}$/, `${name} must be a whole number of pixels.`)
    .transform(Number)
    .optional();

export const oembedQuery = z.object({
  url: z.string({ error: 'url is required.' }).describe("The address of a topic's page on Crux (or of one of its responses)."),
  format: z.string().optional().describe('json (the default); xml answers 501.'),
  maxwidth: dimension('maxwidth').describe('The widest the frame may be, in pixels.'),
  maxheight: dimension('maxheight').describe('The tallest the frame may be, in pixels.'),
});

export const oembedSchema = z
  .object({
    version: z.literal('1.0'),
    type: z.literal('rich'),
    provider_name: z.string(),
    provider_url: z.string(),
    title: z.string(),
    html: z.string().describe("The <iframe> of the topic's embed page, and the script that sizes it."),
    width: z.number(),
    height: z.number(),
    cache_age: z.number(),
    thumbnail_url: z.string(),
    thumbnail_width: z.number(),
    thumbnail_height: z.number(),
  })
  .meta({ id: 'OEmbed' });

const oembed = apiRoute({
  method: 'get',
  path: '/oembed',
  tag: 'Embedding',
  summary: 'oEmbed for a topic',
  description:
    "oEmbed 1.0 (https://oembed.com): a `rich` answer whose `html` is an <iframe> of the topic's read-only embed page. " +
    'A topic a moderator removed or hid is not embeddable (404).',
  auth: 'none',
  query: oembedQuery,
  queryExample: '?url=https://crux.example/topics/T1&maxwidth=500',
  answers: { 200: { description: 'The oEmbed answer.', schema: oembedSchema } },
  errors: ['invalid-argument', 'not-found', 'not-implemented'],
});

const cardImage = apiRoute({
  method: 'get',
  path: '/topics/{id}/card.png',
  tag: 'Embedding',
  summary: "A topic's share-card image",
  description: `A ${CARD_WIDTH}×${CARD_HEIGHT} PNG of the balance of stances (the share card's og:image); cached 5 minutes, with an ETag.`,
  auth: 'none',
  params: topicIdParams,
  answers: { 200: { description: 'The image.', contentType: 'image/png', schema: z.string().meta({ format: 'binary' }) } },
  errors: ['not-found'],
});

const TOPIC_ADDRESS = /^\/topics\/([^/]+)(?:\/responses\/[^/]+)?\/?$/;

/** The topic id of a Crux topic (or response) address, or a 400. */
export function topicIdOfUrl(address: string): string {
  const refusal = badRequest('url must be the address of a topic on Crux.');
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refusal;
  }
  const match = TOPIC_ADDRESS.exec(url.pathname);
  if (!['http:', 'https:'].includes(url.protocol) || !match) throw refusal;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    throw refusal;
  }
}

/** Only the topic id goes into the frame's address and attributes: escaped all the same. */
const attr = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function embedApiRoutes(summaries: TopicSummaries, options: EmbedOptions) {
  const app = new OpenAPIHono<AppEnv>();
  // An image is made once per balance of stances (a few KB each).
  const images = new LRUCache<string, Uint8Array>({ max: 200 });
  serve(app, oembed, async (c, read) => {
    const query = read.query();
    if (query.format !== undefined && query.format !== 'json') {
      if (query.format === 'xml') throw new CruxError('not-implemented', 'Only format=json is available.');
      throw badRequest('format must be json.');
    }
    const topicId = topicIdOfUrl(query.url);
    const summary = await summaries.get(topicId);
    if (!summary) throw notFound(MSG.topicNotFound);
    const origin = originOf(c, options);
    const width = Math.min(query.maxwidth ?? OEMBED_WIDTH, OEMBED_WIDTH);
    const height = Math.min(query.maxheight ?? OEMBED_HEIGHT, OEMBED_HEIGHT);
    const frame =
      `<iframe src="${attr(embedUrl(origin, topicId))}" width="${width}" height="${height}" title="${attr(`${summary.topic.title} – Crux`)}" ` +
      `data-crux-frame="${attr(topicId)}" style="border:0;max-width:100%" loading="lazy"></iframe>` +
      `<script async src="${attr(`${origin}/embed.js`)}"></script>`;
    const body = JSON.stringify({
      version: '1.0',
      type: 'rich',
      provider_name: 'Crux',
      provider_url: `${origin}/`,
      title: summary.topic.title,
      html: frame,
      width,
      height,
      cache_age: 300,
      thumbnail_url: cardImageUrl(origin, topicId),
      thumbnail_width: CARD_WIDTH,
      thumbnail_height: CARD_HEIGHT,
    } satisfies z.infer<typeof oembedSchema>);
    return cachedAnswer(c, body, { 'Content-Type': 'application/json; charset=utf-8' });
  });
  serve(app, cardImage, async (c, read) => {
    const { id } = read.params();
    const summary = await summaries.get(id);
    if (!summary) throw notFound(MSG.topicNotFound);
    const { agree, disagree, unsure } = summary.stances;
    const key = `${agree}:${disagree}:${unsure}`;
    let png = images.get(key);
    if (!png) {
      png = balanceCardPng(summary.stances);
      images.set(key, png);
    }
    return cachedAnswer(c, png, { 'Content-Type': 'image/png' });
  });
  return app;
}
