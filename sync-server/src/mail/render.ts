// The weekly summary as a mail: subject, plain text, and a responsive HTML part built the way
// mail clients render reliably (one centred table at most 600 px wide, inline styles, a media
// query only as an extra for small screens, no images, no scripts). Every user text is escaped; a response's excerpt is formatted by the
// app's own renderer (shared/markdown.ts, inline: emphasis, code, safe links), the text part stays plain.
import { renderMarkdownInline } from '../../../shared/markdown.js';
import { authorName } from '../../../shared/rules/author-name.js';
import { truncate } from '../../../shared/rules/truncate.js';
import type { WeeklyDigest } from './digest.js';

export interface MailLinks {
  /** The app's origin, no trailing slash (PUBLIC_URL). */
  publicUrl: string;
  /** The page that confirms the unsubscribe (the mail's visible link). */
  unsubscribeUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const EXCERPT = 200;
const STANCE = { for: 'agrees', against: 'disagrees', neutral: 'responds' } as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A response's first words, formatted as in the app (escaped, allow-listed). */
const excerptHtml = (content: string) => renderMarkdownInline(truncate(content, EXCERPT));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });

export function topicUrl(publicUrl: string, topicId: string) {
  return `${publicUrl}/topics/${encodeURIComponent(topicId)}`;
}

export function subjectFor(d: WeeklyDigest): string {
  const parts: string[] = [];
  if (d.replies.total > 0) parts.push(plural(d.replies.total, 'new reply', 'new replies'));
  if (d.pointsChange !== 0) parts.push(`${signed(d.pointsChange)} ${Math.abs(d.pointsChange) === 1 ? 'point' : 'points'}`);
  if (d.needs.rebuttals.total > 0) parts.push(`${plural(d.needs.rebuttals.total, 'rebuttal')} awaiting your answer`);
  // Only when nothing above is there to say (the subject stays short): the quieter needs.
  if (parts.length === 0 && d.needs.unsourced.length > 0)
    parts.push(`${plural(d.needs.unsourced.length, 'challenged claim')} to back with a source`);
  if (parts.length === 0 && d.needs.lostCommonGround.length > 0)
    parts.push(`your side lost common ground on ${plural(d.needs.lostCommonGround.length, 'topic')}`);
  return `Your week on Crux: ${parts.join(', ')}`;
}

function standing(d: WeeklyDigest): { line: string; moved: string } {
  const line = `You have ${plural(d.points, 'point')}${d.points > 0 ? ` and rank #${d.rank}` : ''}.`;
  const moves: string[] = [];
  if (d.pointsChange !== 0) moves.push(`${signed(d.pointsChange)} ${Math.abs(d.pointsChange) === 1 ? 'point' : 'points'} this week`);
  if (d.rankChange !== null && d.rankChange !== 0) {
    moves.push(d.rankChange > 0 ? `up ${plural(d.rankChange, 'place')}` : `down ${plural(-d.rankChange, 'place')}`);
  }
  return { line, moved: moves.length ? `${moves.join(', ')}.`.replace(/^./, (c) => c.toUpperCase()) : '' };
}

const replyLead = (r: WeeklyDigest['replies']['items'][number]) =>
  `${authorName(r.author_name)} ${STANCE[r.type]} on your ${r.replied_to === 'topic' ? 'topic' : 'response'}`;

export function renderText(d: WeeklyDigest, links: MailLinks): string {
  const out: string[] = [];
  const name = d.recipient.display_name ? `Hi ${d.recipient.display_name},` : 'Hi,';
  out.push(name, '', `Here is your week on Crux (${day(d.periodStart)} – ${day(d.periodEnd)}).`, '');
  const { line, moved } = standing(d);
  out.push('YOUR POINTS', line + (moved ? ` ${moved}` : ''), `Leaderboard: ${links.publicUrl}/leaderboard`, '');
  if (d.replies.total > 0) {
    out.push(`NEW REPLIES (${d.replies.total})`);
    for (const r of d.replies.items) {
      out.push(
        `- ${replyLead(r)} "${truncate(r.topic_title, 100)}":`,
        `  "${truncate(r.content, EXCERPT)}"`,
        `  ${topicUrl(links.publicUrl, r.topic_id)}`,
      );
    }
    const more = d.replies.total - d.replies.items.length;
    if (more > 0) out.push(`  …and ${plural(more, 'more reply', 'more replies')}. ${links.publicUrl}/notifications`);
    out.push('');
  }
  out.push(...needsText(d, links));
  if (d.topTopics.length > 0) {
    out.push("THIS WEEK'S TOP TOPICS");
    for (const t of d.topTopics) {
      out.push(
        `- ${t.title} (${t.category}; ${plural(t.score, 'upvote')}, ${plural(t.responses_count, 'response')})`,
        `  ${topicUrl(links.publicUrl, t.id)}`,
      );
    }
    out.push('');
  }
  out.push(
    '--',
    'You get this weekly summary because it is switched on in your Crux e-mail settings.',
    `Unsubscribe: ${links.unsubscribeUrl}`,
  );
  return out.join('\n') + '\n';
}

// Needs (mail/needs.ts): each section only when it has something.
const NEEDS = {
  rebuttals: 'Rebuttals awaiting your answer',
  unsourced: 'Your challenged claims that cite no source',
  lost: 'Where your side lost common ground',
} as const;
const rebuttalLead = (r: WeeklyDigest['needs']['rebuttals']['items'][number]) =>
  `${authorName(r.author_name)} argues against your "${truncate(r.parent_content, 80)}" in`;
const unsourcedLead = (c: WeeklyDigest['needs']['unsourced'][number]) =>
  `Challenged ${c.challenges === 1 ? 'once' : `${c.challenges} times`}; a source would answer it. In`;
const lostLead = (l: WeeklyDigest['needs']['lostCommonGround'][number]) => `Common-ground responses on your side: ${l.before} → ${l.now}.`;

function needsText(d: WeeklyDigest, links: MailLinks): string[] {
  const out: string[] = [];
  const { rebuttals, unsourced, lostCommonGround } = d.needs;
  if (rebuttals.total > 0) {
    out.push(`${NEEDS.rebuttals.toUpperCase()} (${rebuttals.total})`);
    for (const r of rebuttals.items) {
      out.push(
        `- ${rebuttalLead(r)} "${truncate(r.topic_title, 100)}":`,
        `  "${truncate(r.content, EXCERPT)}"`,
        `  ${topicUrl(links.publicUrl, r.topic_id)}`,
      );
    }
    const more = rebuttals.total - rebuttals.items.length;
    if (more > 0) out.push(`  …and ${more} more.`);
    out.push('');
  }
  if (unsourced.length > 0) {
    out.push(NEEDS.unsourced.toUpperCase());
    for (const c of unsourced) {
      out.push(
        `- "${truncate(c.content, EXCERPT)}"`,
        `  ${unsourcedLead(c)} "${truncate(c.topic_title, 100)}"`,
        `  ${topicUrl(links.publicUrl, c.topic_id)}`,
      );
    }
    out.push('');
  }
  if (lostCommonGround.length > 0) {
    out.push(NEEDS.lost.toUpperCase());
    for (const l of lostCommonGround) {
      out.push(`- ${truncate(l.topic_title, 100)}: ${lostLead(l)}`, `  ${topicUrl(links.publicUrl, l.topic_id)}`);
    }
    out.push('');
  }
  return out;
}

const C = {
  ink: '#1f2933',
  muted: '#52606d',
  accent: '#1d4ed8',
  line: '#e4e7eb',
  page: '#f5f7fa',
  font: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
};

const a = (href: string, text: string, style = '') =>
  `<a href="${escapeHtml(href)}" style="color:${C.accent};text-decoration:underline;${style}">${escapeHtml(text)}</a>`;
const h2 = (text: string) => `<h2 style="margin:24px 0 8px;font-size:17px;line-height:1.3;color:${C.ink};">${escapeHtml(text)}</h2>`;

export function renderHtml(d: WeeklyDigest, links: MailLinks, subject: string): string {
  const { line, moved } = standing(d);
  const greeting = d.recipient.display_name ? `Hi ${d.recipient.display_name},` : 'Hi,';
  const replies = d.replies.items
    .map(
      (r) => `<tr><td class="item" style="padding:12px 0;border-top:1px solid ${C.line};">
<p style="margin:0 0 4px;font-size:14px;color:${C.muted};">${escapeHtml(replyLead(r))} ${a(topicUrl(links.publicUrl, r.topic_id), truncate(r.topic_title, 100))}</p>
<p style="margin:0;font-size:15px;line-height:1.5;color:${C.ink};">&ldquo;${excerptHtml(r.content)}&rdquo;</p>
</td></tr>`,
    )
    .join('\n');
  const more = d.replies.total - d.replies.items.length;
  const topics = d.topTopics
    .map(
      (t) => `<tr><td class="item" style="padding:10px 0;border-top:1px solid ${C.line};">
${a(topicUrl(links.publicUrl, t.id), t.title, 'font-size:15px;font-weight:600;')}
<p style="margin:2px 0 0;font-size:13px;color:${C.muted};">${escapeHtml(`${t.category} · ${plural(t.score, 'upvote')} · ${plural(t.responses_count, 'response')}`)}</p>
</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
<style>
@media (max-width: 620px) { .card { padding: 20px 16px !important; } .outer { padding: 0 !important; } }
</style>
</head>
<body style="margin:0;padding:0;background:${C.page};font-family:${C.font};color:${C.ink};">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(subject)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${C.page};">
<tr><td class="outer" align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td style="padding:0 4px 12px;font-size:20px;font-weight:700;color:${C.ink};">Crux</td></tr>
<tr><td class="card" style="background:#ffffff;border:1px solid ${C.line};border-radius:8px;padding:28px 32px;">
<p style="margin:0 0 8px;font-size:16px;">${escapeHtml(greeting)}</p>
<p style="margin:0;font-size:15px;line-height:1.5;color:${C.muted};">Here is your week on Crux (${escapeHtml(day(d.periodStart))} &ndash; ${escapeHtml(day(d.periodEnd))}).</p>
${h2('Your points')}
<p style="margin:0;font-size:15px;line-height:1.5;">${escapeHtml(line)}${moved ? ` <strong>${escapeHtml(moved)}</strong>` : ''}</p>
<p style="margin:6px 0 0;font-size:14px;">${a(`${links.publicUrl}/leaderboard`, 'See the leaderboard')}</p>
${
  d.replies.total > 0
    ? `${h2(`New replies (${d.replies.total})`)}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${replies}
</table>${more > 0 ? `\n<p style="margin:8px 0 0;font-size:14px;">${a(`${links.publicUrl}/notifications`, `…and ${plural(more, 'more reply', 'more replies')}`)}</p>` : ''}`
    : ''
}
${needsHtml(d, links)}
${
  d.topTopics.length > 0
    ? `${h2("This week's top topics")}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${topics}
</table>`
    : ''
}
</td></tr>
<tr><td style="padding:16px 4px;font-size:12px;line-height:1.5;color:${C.muted};">
You get this weekly summary because it is switched on in your Crux e-mail settings.
${a(links.unsubscribeUrl, 'Unsubscribe', `color:${C.muted};`)} &middot; ${a(`${links.publicUrl}/`, 'Open Crux', `color:${C.muted};`)}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function needsHtml(d: WeeklyDigest, links: MailLinks): string {
  const item = (
    lead: string,
    quote: string | null,
    href: string,
    title: string,
  ) => `<tr><td class="item" style="padding:12px 0;border-top:1px solid ${C.line};">
<p style="margin:0 0 4px;font-size:14px;color:${C.muted};">${escapeHtml(lead)} ${a(href, truncate(title, 100))}</p>${
    quote === null ? '' : `\n<p style="margin:0;font-size:15px;line-height:1.5;color:${C.ink};">&ldquo;${excerptHtml(quote)}&rdquo;</p>`
  }
</td></tr>`;
  const table = (rows: string[]) =>
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">\n${rows.join('\n')}\n</table>`;
  const { rebuttals, unsourced, lostCommonGround } = d.needs;
  const parts: string[] = [];
  if (rebuttals.total > 0) {
    const more = rebuttals.total - rebuttals.items.length;
    parts.push(
      `${h2(`${NEEDS.rebuttals} (${rebuttals.total})`)}\n${table(
        rebuttals.items.map((r) => item(rebuttalLead(r), r.content, topicUrl(links.publicUrl, r.topic_id), r.topic_title)),
      )}${more > 0 ? `\n<p style="margin:8px 0 0;font-size:14px;color:${C.muted};">…and ${more} more.</p>` : ''}`,
    );
  }
  if (unsourced.length > 0) {
    parts.push(
      `${h2(NEEDS.unsourced)}\n${table(unsourced.map((c) => item(unsourcedLead(c), c.content, topicUrl(links.publicUrl, c.topic_id), c.topic_title)))}`,
    );
  }
  if (lostCommonGround.length > 0) {
    parts.push(
      `${h2(NEEDS.lost)}\n${table(lostCommonGround.map((l) => item(lostLead(l), null, topicUrl(links.publicUrl, l.topic_id), l.topic_title)))}`,
    );
  }
  return parts.join('\n');
}

export function renderWeeklyMail(d: WeeklyDigest, links: MailLinks): RenderedMail {
  const subject = subjectFor(d);
  return { subject, text: renderText(d, links), html: renderHtml(d, links, subject) };
}
