// What the weekly mail names as needing the reader, beside the replies: rebuttals
// awaiting their answer, their claims that cite no source and were challenged, and the topics where
// their side lost common ground since the last mail. Built from needs, not popularity.
//
// - A rebuttal is another person's "against" reply to one of the reader's responses; it awaits the
//   reader while they have not replied under it (within AWAITING_DAYS, so a mail does not nag about
//   last year's thread forever).
// - A claim is challenged when someone else answered it "against" in the mail's period; it is named
//   when it cites no source (the cheapest way to answer a challenge is a source).
// - The reader's side on a topic: "for" responses when they stand agree, "against" when disagree.
//   Each run records how many of their side's responses were common ground (shared/rules/
//   common-ground.ts) per topic; a topic is named when that number fell since the previous run.
import { isCommonGround } from '../../../shared/rules/common-ground.js';
import type { CommonGroundCount, MailChallenged, MailRebuttal, MailRecipient, MailRun } from '../store/rows.js';
import type { Store } from '../store/types.js';

export const AWAITING_DAYS = 28;
export const MAIL_REBUTTALS = 5;
export const MAIL_UNSOURCED = 5;

export interface LostCommonGround {
  topic_id: string;
  topic_title: string;
  /** Responses of the reader's side that were common ground at the previous mail, and now. */
  before: number;
  now: number;
}

export interface MailNeeds {
  rebuttals: { total: number; items: MailRebuttal[] };
  unsourced: MailChallenged[];
  lostCommonGround: LostCommonGround[];
}

/** Per topic where the reader took a side: its title and how many of their side's responses are common ground now. */
async function sideCounts(store: Store, uid: string): Promise<Map<string, { title: string; common: number }>> {
  const counts = new Map<string, { title: string; common: number }>();
  for (const row of await store.mail.sideTallies(uid)) {
    const entry = counts.get(row.topic_id) ?? { title: row.topic_title, common: 0 };
    const common =
      row.upvotes_agree !== null &&
      isCommonGround(
        { upvotes: row.upvotes_agree, downvotes: row.downvotes_agree ?? 0, participants: row.stance_agree },
        { upvotes: row.upvotes_disagree ?? 0, downvotes: row.downvotes_disagree ?? 0, participants: row.stance_disagree },
      );
    counts.set(row.topic_id, { ...entry, common: entry.common + (common ? 1 : 0) });
  }
  return counts;
}

/** Every recipient's counts as a run starts: what the next run compares with. */
export async function commonGroundSnapshot(store: Store, recipients: MailRecipient[]) {
  const rows: Array<{ uid: string } & CommonGroundCount> = [];
  for (const { uid } of recipients) {
    for (const [topic_id, { common }] of await sideCounts(store, uid)) rows.push({ uid, topic_id, common });
  }
  return rows;
}

export async function buildNeeds(store: Store, run: MailRun, uid: string): Promise<MailNeeds> {
  const since = new Date(Date.parse(run.period_end) - AWAITING_DAYS * 86_400_000).toISOString();
  const rebuttals = await store.mail.rebuttalsAwaiting(uid, since, run.period_end, MAIL_REBUTTALS);
  const unsourced = await store.mail.challengedUnsourced(uid, run.period_start, run.period_end, MAIL_UNSOURCED);

  const live = await sideCounts(store, uid);
  // The run's own record when it has one (a resumed run compares what it started with), else now.
  const recorded = await store.mail.commonGroundOf(run.id, uid);
  const now =
    recorded.length > 0 ? new Map(recorded.map((c) => [c.topic_id, c.common])) : new Map([...live].map(([id, c]) => [id, c.common]));
  const lostCommonGround: LostCommonGround[] = [];
  for (const before of await store.mail.previousCommonGround(uid, run.period_end)) {
    const current = now.get(before.topic_id);
    const topic = live.get(before.topic_id);
    // A topic gone, or where the reader no longer takes a side, is not "their side losing".
    if (current === undefined || !topic || current >= before.common) continue;
    lostCommonGround.push({ topic_id: before.topic_id, topic_title: topic.title, before: before.common, now: current });
  }
  lostCommonGround.sort((a, b) => b.before - b.now - (a.before - a.now) || (a.topic_id < b.topic_id ? -1 : 1));
  return { rebuttals, unsourced, lostCommonGround };
}

/** Whether the needs hold anything that happened in the period (an older rebuttal alone is not news). */
export function hasNewNeeds(needs: MailNeeds, periodStart: string): boolean {
  return needs.rebuttals.items.some((r) => r.created_at >= periodStart) || needs.unsourced.length > 0 || needs.lostCommonGround.length > 0;
}
