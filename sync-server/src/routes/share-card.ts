// What a link to a page shows when it is pasted into a chat or a social network: Open Graph and
// Twitter card tags, put in the page's HTML by the server, because the crawlers that read them do not
// run the app's JavaScript. A topic's card carries its title, the balance of its participants'
// stances, its count of responses and the first words of its first response; other pages say what
// Crux is. Every text is escaped (hono's html helper).
import { markdownPlainText } from '../../../shared/markdown.js';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { FirstPageData } from '../../../shared/types.js';
import { truncate } from '../../../shared/rules/truncate.js';

const SITE = 'Crux';
const SITE_DESCRIPTION = 'Structured debates that find the crux of every disagreement.';
/** The app's icon: square, so the "summary" card (a small square image beside the text). */
const IMAGE = '/icon-512.png';
/** Words of a response that fit a card's description on the common platforms (about 200 characters). */
const EXCERPT_CHARS = 140;

export interface ShareCard {
  title: string;
  description: string;
  type: 'website' | 'article';
}

/** hono's html helper answers a promise only when given one: these tags are given strings. */
function text(markup: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (markup instanceof Promise) throw new Error('share-card markup is built from strings only');
  return markup;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The card of a page's first screen (routes/first-page.ts). */
export function shareCardFor(data: FirstPageData): ShareCard {
  const topic = data.topic;
  if (!topic) return { title: SITE, description: SITE_DESCRIPTION, type: 'website' };
  const stances = data.stances;
  const balance = stances ? `${stances.agree} agree · ${stances.disagree} disagree · ${stances.unsure} unsure` : null;
  const responses = count(topic.responses_count, 'response', 'responses');
  // A removed or hidden response's text is the moderators' notice: not the debate's first words.
  const first = data.responses?.find((r) => r.moderation === null && r.content.trim() !== '');
  // Its words as they read, without the Markdown marks.
  const excerpt = first ? `“${truncate(markdownPlainText(first.content), EXCERPT_CHARS)}”` : null;
  return {
    title: topic.title,
    description: [[balance, responses].filter(Boolean).join(' · '), excerpt].filter(Boolean).join('. '),
    type: 'article',
  };
}

/** The tags of `card` for the page at `pageUrl` (absolute), its image on `origin`. */
export function shareCardTags(card: ShareCard, pageUrl: string, origin: string): string {
  const image = `${origin}${IMAGE}`;
  const og: [string, string][] = [
    ['og:site_name', SITE],
    ['og:type', card.type],
    ['og:title', card.title],
    ['og:description', card.description],
    ['og:url', pageUrl],
    ['og:image', image],
    ['og:image:alt', SITE],
  ];
  const twitter: [string, string][] = [
    ['twitter:card', 'summary'],
    ['twitter:title', card.title],
    ['twitter:description', card.description],
    ['twitter:image', image],
  ];
  return [
    ...og.map(([key, value]) => text(html`<meta property="${key}" content="${value}" />`)),
    ...twitter.map(([key, value]) => text(html`<meta name="${key}" content="${value}" />`)),
  ].join('');
}

/** The page's own title in the shell's `<title>` (a topic's: "Its title – Crux"). */
export function withPageTitle(shell: string, card: ShareCard): string {
  if (card.type !== 'article') return shell;
  const title = text(html`<title>${card.title} – ${SITE}</title>`);
  return shell.replace(/<title>[^<]*<\/title>/, () => title);
}
