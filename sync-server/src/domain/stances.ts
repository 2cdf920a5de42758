// Where people stand: each user's stance on a topic's question, its history,
// and the Δ credits ("this changed my view") given for a change of stance. One code path for
// PUT /api/topics/{id}/stance and the `stances` push. Individual stances are private: only the
// owner's own calls return them; topics carry the counts, responses their Δ count.
import type { Stance } from '../../../shared/constants.js';
import { notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { creditProblem, type CreditTarget } from '../../../shared/rules/deltas.js';
import { hasStanding } from '../../../shared/rules/standing.js';
import type { MyStance } from '../../../shared/types.js';
import type { Change } from './change-feed.js';
import { liveTopic, nowIso, publish, type DomainContext } from './context.js';
import type { CreditRow, StanceRow } from '../store/rows.js';
import { assertNotSuspended } from './moderation-rules.js';

export interface StanceInput {
  stance: Stance;
  /**
   * The device's first stance, used only when the server has none yet (a stance set and changed
   * offline before the first push keeps its true "before"); ignored afterwards.
   */
  first_stance?: Stance | undefined;
  /**
   * Responses credited with Δ for the latest change of stance: replaces that change's list.
   * Omitted: [] for a new change, unchanged for the same stance.
   */
  credits?: readonly string[] | undefined;
}

export function toMyStance(row: StanceRow): MyStance {
  return {
    topic_id: row.topic_id,
    stance: row.stance,
    first_stance: row.first_stance,
    history: row.history,
    credits: row.credits,
    updated_at: row.updated_at,
  };
}

/** The caller's own stance on a live topic (404 noStanceYet when none was recorded). */
export async function myStance(ctx: DomainContext, uid: string, topicId: string): Promise<MyStance> {
  await liveTopic(ctx, topicId);
  const row = await ctx.store.stances.get(uid, topicId);
  if (!row) throw notFound(MSG.noStanceYet);
  return toMyStance(row);
}

/**
 * The stance and history after this input: a different stance appends to the history (a new
 * change). `creditFrom`: the first change that may earn Δ credits — a device's offline "before"
 * (first_stance on the first record) is shown, but that change opens no credit window: the server
 * never saw the earlier stance.
 */
function nextState(existing: StanceRow | undefined, input: StanceInput, now: string) {
  if (!existing) {
    const first = input.first_stance ?? input.stance;
    const history = [{ stance: first, at: now }];
    if (input.stance !== first) history.push({ stance: input.stance, at: now });
    return { first, history, newChange: true, creditFrom: history.length };
  }
  const creditFrom = existing.credit_from ?? 1;
  if (input.stance === existing.stance) return { first: existing.first_stance, history: existing.history, newChange: false, creditFrom };
  return { first: existing.first_stance, history: [...existing.history, { stance: input.stance, at: now }], newChange: true, creditFrom };
}

/**
 * Records the user's stance on a topic and the Δ credits for its latest change, recounting in the
 * same transaction what derives from them: the topic's stance counters, the credited responses'
 * Δ counts and their authors' persuasion points (and so their points and rank). Idempotent: the
 * same input again changes nothing.
 */
export async function recordStance(ctx: DomainContext, uid: string, topicId: string, input: StanceInput): Promise<MyStance> {
  const { store } = ctx;
  const changes: Change[] = [];
  const saved = await store.transaction(async () => {
    await liveTopic(ctx, topicId);
    const existing = await store.stances.get(uid, topicId);
    const now = nowIso(ctx);
    const { first, history, newChange, creditFrom } = nextState(existing, input, now);
    const changeNo = history.length - 1;
    const credits = [...(input.credits ?? (newChange ? [] : existing!.credits))];
    if (existing && !newChange && JSON.stringify(credits) === JSON.stringify(existing.credits)) return existing;
    await assertNotSuspended(ctx, uid);

    // Credits already recorded for this change were valid when given: they stay valid even if
    // the response was deleted since (it then counts for nobody); new ones must be live.
    const recorded = await store.stances.creditsFor(uid, topicId, changeNo);
    const recordedTargets = new Map<string, CreditTarget>(
      recorded.map((credit) => [credit.response_id, { topic_id: credit.topic_id, creator_uid: credit.author_uid }]),
    );
    // The rule (shared with the app) looks targets up synchronously: the new ones are read first.
    for (const id of new Set(credits)) {
      if (!recordedTargets.has(id)) {
        const live = await liveCreditTarget(ctx, id);
        if (live) recordedTargets.set(id, live);
      }
    }
    const target = (id: string) => recordedTargets.get(id);
    // Only responses written before the change (the server's time of it) can be credited.
    const problem = creditProblem(credits, { uid, topicId, changes: changeNo, changedAt: history[changeNo]!.at, target });
    if (problem) throw problem;
    // Whether a new credit earns its author persuasion points: a change the server recorded, and a
    // creditor with standing now (shared/rules/standing.ts). Recorded credits keep what they were given.
    const creditor = await store.users.get(uid);
    const counts = changeNo >= creditFrom && creditor !== undefined && hasStanding(creditor, now) ? 1 : 0;
    const recordedCounts = new Map(recorded.map((credit) => [credit.response_id, credit.counts ?? 1]));
    const creditRows: CreditRow[] = credits.map((id) => {
      const { topic_id, creator_uid } = target(id)!;
      return { response_id: id, topic_id, author_uid: creator_uid, counts: recordedCounts.get(id) ?? counts };
    });

    const row: StanceRow = {
      uid,
      topic_id: topicId,
      stance: input.stance,
      first_stance: first,
      history,
      credits,
      updated_at: now,
      seq: await store.nextSeq(),
      credit_from: creditFrom,
    };
    await store.stances.save(row);
    await store.stances.setCredits(uid, topicId, changeNo, creditRows, now);
    changes.push({ collection: 'stances', uid });
    if (await store.topics.refreshStanceCounts(topicId, store.nextSeq)) changes.push({ collection: 'topics' });

    const affected = new Map<string, string>(); // response id → its author
    for (const credit of [...recorded, ...creditRows]) affected.set(credit.response_id, credit.author_uid);
    changes.push(...(await recountCredits(ctx, topicId, affected)));
    return row;
  });
  publish(ctx, changes);
  return toMyStance(saved);
}

async function liveCreditTarget(ctx: DomainContext, responseId: string): Promise<CreditTarget | undefined> {
  const response = await ctx.store.responses.get(responseId, null);
  return response && !response.deleted
    ? { topic_id: response.topic_id, creator_uid: response.creator_uid, created_at: response.created_at }
    : undefined;
}

/** Recounts the Δ count of each response and the persuasion points of each author; returns what to tell listeners. */
export async function recountCredits(ctx: DomainContext, topicId: string, responses: ReadonlyMap<string, string>): Promise<Change[]> {
  const { store } = ctx;
  const changes: Change[] = [];
  let responsesChanged = false;
  for (const responseId of responses.keys()) {
    if (await store.responses.refreshDeltaCount(responseId, store.nextSeq)) responsesChanged = true;
  }
  if (responsesChanged) changes.push({ collection: 'responses', topicId, votesKept: true });
  for (const author of new Set(responses.values())) changes.push(...(await refreshPersuasion(ctx, author)));
  return changes;
}

/** Recounts one author's persuasion points (and points); the profile replicates when they moved. */
export async function refreshPersuasion(ctx: DomainContext, uid: string): Promise<Change[]> {
  return (await ctx.store.users.refreshPersuasionPoints(uid, ctx.store.nextSeq)) ? [{ collection: 'profile', uid }] : [];
}
