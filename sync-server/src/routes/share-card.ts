// What a link to a page shows when it is pasted into a chat or a social network: Open Graph and
// Twitter card tags, put in the page's HTML by the server, because the crawlers that read them do not
// run the app's JavaScript. A topic's card carries its title, the balance of its participants'
// stances, its count of responses and the first words of its first response; other pages say what
// Crux is. Every text is escaped (hono's html helper).
import { markdownPlainText } from '../../../shared/markdown.js';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { truncate } from '../../../shared/rules/truncate.js';
import { CARD_HEIGHT, CARD_WIDTH } from './card-image.js';
import type { SharePageData } from './first-page.js';

const SITE = 'Crux';
const SITE_DESCRIPTION = 'Structured debates that find the crux of every disagreement.';
/** The app's icon: square, so the "summary" card (a small square image beside the text) of pages without a topic. */
const IMAGE = '/icon-512.png';
/** Words of a response that fit a card's description on the common platforms (about 200 characters). */
const EXCERPT_CHARS = 140;

export interface ShareCard {
  title: string;
  description: string;
  type: 'website' | 'article';
  /** A topic's page or one of its responses': the topic, whose balance image (card.png) the card shows. */
  topicId?: string;
}

/** What a response's card says of the side it argues. */
const SIDE_TEXT = { for: 'Argues for', against: 'Argues against' } as const;

/** hono's html helper answers a promise only when given one: these tags are given strings. */
function text(markup: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (markup instanceof Promise) throw new Error('share-card markup is built from strings only');
  return markup;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The card of a page's first screen (routes/first-page.ts). */
export function shareCardFor(data: SharePageData): ShareCard {
  const topic = data.topic;
  if (!topic) return { title: SITE, description: SITE_DESCRIPTION, type: 'website' };
  const stances = data.stances;
  const balance = stances ? `${stances.agree} agree · ${stances.disagree} disagree · ${stances.unsure} unsure` : null;
  const responses = count(topic.responses_count, 'response', 'responses');
  // Words as they read, without the Markdown marks.
  const quote = (content: string) => `“${truncate(markdownPlainText(content), EXCERPT_CHARS)}”`;
  // A response's own address: its words and the side it argues (a moderated one's text is not shown).
  const response = data.response && data.response.moderation === null ? data.response : null;
  if (response) {
    const by = response.username ? `${response.username} · ` : '';
    const side = data.responseSide ? SIDE_TEXT[data.responseSide] : 'Responds';
    return {
      title: topic.title,
      description: `${by}${side}: ${quote(response.content)} · ${[balance, responses].filter(Boolean).join(' · ')}`,
      type: 'article',
      topicId: topic.id,
    };
  }
  // A removed or hidden response's text is the moderators' notice: not the debate's first words.
  const first = data.responses?.find((r) => r.moderation === null && r.content.trim() !== '');
  const excerpt = first ? quote(first.content) : null;
  return {
    title: topic.title,
    description: [[balance, responses].filter(Boolean).join(' · '), excerpt].filter(Boolean).join('. '),
    type: 'article',
    topicId: topic.id,
  };
}

/** The tags of `card` for the page at `pageUrl` (absolute), its image on `origin`. */
export function shareCardTags(card: ShareCard, pageUrl: string, origin: string): string {
  const topicId = card.topicId;
  // A topic's card: its balance drawn as a wide PNG (routes/card-image.ts); any other page: the icon.
  const image = topicId ? `${origin}/api/topics/${encodeURIComponent(topicId)}/card.png` : `${origin}${IMAGE}`;
  const og: [string, string][] = [
    ['og:site_name', SITE],
    ['og:type', card.type],
    ['og:title', card.title],
    ['og:description', card.description],
    ['og:url', pageUrl],
    ['og:image', image],
    ...(topicId
      ? ([
          ['og:image:type', 'image/png'],
          ['og:image:width', String(CARD_WIDTH)],
          ['og:image:height', String(CARD_HEIGHT)],
        ] as [string, string][])
      : []),
    ['og:image:alt', topicId ? `The balance of stances on “${card.title}”` : SITE],
  ];
  const twitter: [string, string][] = [
    ['twitter:card', topicId ? 'summary_large_image' : 'summary'],
    ['twitter:title', card.title],
    ['twitter:description', card.description],
    ['twitter:image', image],
  ];
  // Platforms that read oEmbed (routes/embed.ts) find the topic's embed from its page.
  const oembed = topicId
    ? [
        text(
          html`<link
            rel="alternate"
            type="application/json+oembed"
            href="${`${origin}/api/oembed?url=${encodeURIComponent(pageUrl)}&format=json`}"
            title="${card.title}"
          />`,
        ),
      ]
    : [];
  return [
    ...og.map(([key, value]) => text(html`<meta property="${key}" content="${value}" />`)),
    ...twitter.map(([key, value]) => text(html`<meta name="${key}" content="${value}" />`)),
    ...oembed,
  ].join('');
}

/** The page's own title in the shell's `<title>` (a topic's: "Its title – Crux"). */
export function withPageTitle(shell: string, card: ShareCard): string {
  if (card.type !== 'article') return shell;
  const title = text(html`<title>${card.title} – ${SITE}</title>`);
  return shell.replace(/<title>[^<]*<\/title>/, () => title);
}
