// What one person's weekly summary holds: others' replies to their topics and responses in
// the period, their points and rank and how both moved, what needs them (mail/needs.ts: rebuttals
// awaiting their answer, challenged claims without a source, topics where their side lost common
// ground), and the period's top topics. Null when nothing happened to them (nobody
// gets a mail about nothing).
import type { Store } from '../store/types.js';
import type { MailRecipient, MailReply, MailRun, MailTopTopic } from '../store/rows.js';
import { buildNeeds, hasNewNeeds, type MailNeeds } from './needs.js';

/** How many replies a mail lists (the count says how many more there are). */
export const MAIL_REPLIES = 10;
export const MAIL_TOP_TOPICS = 5;

export interface WeeklyDigest {
  recipient: MailRecipient;
  periodStart: string;
  periodEnd: string;
  replies: { total: number; items: MailReply[] };
  points: number;
  rank: number;
  /** Points gained (or lost) since the last summary, or this period's upvotes before the first one. */
  pointsChange: number;
  /** Places moved up (positive) or down since the last summary; null when there is no earlier one. */
  rankChange: number | null;
  needs: MailNeeds;
  topTopics: MailTopTopic[];
}

/** Everyone's points and rank as the run starts: the base the next run compares with. */
export async function pointsSnapshot(store: Store, recipients: MailRecipient[]) {
  const snapshot: Array<{ uid: string; points: number; rank: number }> = [];
  for (const { uid } of recipients) {
    const points = (await store.users.get(uid))?.points ?? 0;
    snapshot.push({ uid, points, rank: await store.users.rankFor(points) });
  }
  return snapshot;
}

export async function buildDigest(
  store: Store,
  run: MailRun,
  recipient: MailRecipient,
  topTopics: MailTopTopic[],
): Promise<WeeklyDigest | null> {
  const { mail } = store;
  const replies = await mail.repliesTo(recipient.uid, run.period_start, run.period_end, MAIL_REPLIES);
  const now = (await mail.snapshot(run.id, recipient.uid)) ?? (await pointsSnapshot(store, [recipient]))[0]!;
  const before = await mail.previousSnapshot(recipient.uid, run.period_end);
  const pointsChange = before ? now.points - before.points : await mail.pointsEarned(recipient.uid, run.period_start, run.period_end);
  const rankChange = before && now.points > 0 ? before.rank - now.rank : null;
  const needs = await buildNeeds(store, run, recipient.uid);
  if (replies.total === 0 && pointsChange === 0 && !hasNewNeeds(needs, run.period_start)) return null;
  return {
    recipient,
    periodStart: run.period_start,
    periodEnd: run.period_end,
    replies,
    points: now.points,
    rank: now.rank,
    pointsChange,
    rankChange,
    needs,
    topTopics,
  };
}
