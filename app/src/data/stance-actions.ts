// Where I stand and "this changed my view": the user's stance document on a topic
// (user database, id = topic id) written locally with `pending: true`, sent by the outbox like
// any write (collections/index.ts `stances`). The Δ rules are checked here with the server's own
// rule (shared/rules/deltas.ts), so a refused credit never enters the outbox.
import { STANCES, type Stance } from '../../../shared/constants.js';
import { badRequest, notFound, type CruxError } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { creditProblem, type CreditTarget } from '../../../shared/rules/deltas.js';
import type { Session } from './collections/index.js';
import type { PublicDb } from './db.js';
import { markPending } from './local-docs.js';

const now = () => new Date().toISOString();

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** `storedTopic`: the topic once the device has it (actions.ts: it may still be on its way). */
export function createStanceActions(
  publicDb: PublicDb,
  signedIn: (message: string) => Session,
  storedTopic: (id: string) => Promise<{ pending_delete?: boolean } | null> = (id) => publicDb.topics.findOne(id).exec(),
) {
  async function liveTopic(topicId: string) {
    const topic = await storedTopic(topicId);
    if (!topic || topic.pending_delete) throw notFound(MSG.topicNotFound);
    return topic;
  }

  return {
    /** The first stance is the "before"; a different one is a change (its credits start empty); the same one is nothing. */
    async setStance(topicId: string, stance: Stance): Promise<void> {
      const s = signedIn(MSG.loginToRecordStance);
      if (!(STANCES as readonly string[]).includes(stance)) throw badRequest(MSG.stanceMissing);
      await liveTopic(topicId);
      const at = now();
      const existing = await s.db.stances.findOne(topicId).exec();
      if (!existing) {
        // upsert, not insert: a first stance the server refused left a local tombstone under this id.
        await s.db.stances.upsert({
          id: topicId,
          topic_id: topicId,
          stance,
          first_stance: stance,
          history: [{ stance, at }],
          credits: [],
          updated_at: at,
          seq: 0,
          pending: true,
        });
        return;
      }
      if (existing.stance === stance) return;
      await markPending(existing, {
        stance,
        history: [...existing.history.map((change) => ({ stance: change.stance, at: change.at })), { stance, at }],
        credits: [],
        updated_at: at,
      });
    },

    /** Replaces the credits of the latest change of stance ([] withdraws them). */
    async creditDeltas(topicId: string, responseIds: string[]): Promise<void> {
      const s = signedIn(MSG.loginToRecordStance);
      const credits = [...responseIds];
      const doc = await s.db.stances.findOne(topicId).exec();
      if (!doc) throw badRequest(MSG.noStanceYet);
      // The credited responses as the device knows them; one pending its delete counts as gone.
      const found = credits.length > 0 ? await publicDb.responses.findByIds(credits).exec() : new Map();
      const targets = new Map<string, CreditTarget>();
      for (const [id, response] of found) if (!response.pending_delete) targets.set(id, response);
      const problem: CruxError | null = creditProblem(credits, {
        uid: s.uid,
        topicId,
        changes: doc.history.length - 1,
        target: (id) => targets.get(id),
      });
      if (problem) throw problem;
      if (sameList(doc.credits, credits)) return;
      await markPending(doc, { credits, updated_at: now() });
    },
  };
}
