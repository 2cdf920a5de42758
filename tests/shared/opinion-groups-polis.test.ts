// Opinion groups on real deliberations no one here wrote: public Polis conversations
// (tests/data/polis, CC BY 4.0) grouped by Crux's rule and compared with the groups Polis published
// (adjusted Rand index), the groups checked against how much their members voted (share of the spread
// explained, and agreement with vote-count tertiles), the same votes
// shuffled within each person (no clear groups), and agrees alone (unseen still apart from seen).
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/rules/clustering.js';
import { OPINION_GROUPS, opinionGroups, voteMatrix, type ResponseVote } from '../../shared/rules/opinion-groups.js';
import { groupParticipants } from '../../shared/rules/polis-groups.js';
import { adjustedRand, loadPolis, POLIS_CONVERSATIONS, polisVotes, type PolisConversation } from '../fixtures/polis.js';

/** Crux's groups for the conversation's participants, by participant id (null: no clear groups). */
function cruxGroups(votes: readonly ResponseVote[], removed: readonly string[]): Map<string, number> | null {
  const { voters, matrix, counted } = voteMatrix(votes, removed);
  const found = groupParticipants(matrix, counted, OPINION_GROUPS.MIN_GROUP_SIZE, OPINION_GROUPS.SEED);
  return found && new Map(voters.map((voter, i) => [voter, found.labels[i]!]));
}

/** ARI over the participants both Polis and Crux grouped. */
function agreement(conversation: PolisConversation, groups: Map<string, number>): { ari: number; compared: number } {
  const both = conversation.participants.filter((p) => p.group !== null && groups.has(p.id));
  return {
    ari: adjustedRand(
      both.map((p) => p.group!),
      both.map((p) => groups.get(p.id)!),
    ),
    compared: both.length,
  };
}

/**
 * Share of the spread in members' vote counts that the grouping explains (η², 0..1): how far the
 * groups are "heavy voters against light voters".
 */
function activityExplained(conversation: PolisConversation, groups: Map<string, number>): number {
  const counts = conversation.participants.filter((p) => groups.has(p.id)).map((p) => ({ n: p.votes.size, g: groups.get(p.id)! }));
  const mean = counts.reduce((s, c) => s + c.n, 0) / counts.length;
  const total = counts.reduce((s, c) => s + (c.n - mean) ** 2, 0);
  const between = [...new Set(counts.map((c) => c.g))].reduce((s, g) => {
    const members = counts.filter((c) => c.g === g);
    const m = members.reduce((t, c) => t + c.n, 0) / members.length;
    return s + members.length * (m - mean) ** 2;
  }, 0);
  return total > 0 ? between / total : 0;
}

/**
 * Adjusted Rand index between the grouping and the members' vote-count tertiles (light, middle, heavy
 * voters): about 0 when how much people vote does not explain the groups, 1 when the groups are the tertiles.
 */
function activityTertilesAgreement(conversation: PolisConversation, groups: Map<string, number>): number {
  const members = conversation.participants.filter((p) => groups.has(p.id));
  const sorted = members.map((p) => p.votes.size).sort((a, b) => a - b);
  const low = sorted[Math.floor(sorted.length / 3)]!;
  const high = sorted[Math.floor((2 * sorted.length) / 3)]!;
  const tertile = (n: number) => (n < low ? 0 : n < high ? 1 : 2);
  return adjustedRand(
    members.map((p) => groups.get(p.id)!),
    members.map((p) => tertile(p.votes.size)),
  );
}

/**
 * The least adjusted Rand index each conversation must reach against Polis's published groups
 * (measured: docs/COMMON-GROUND.md, "Opinion groups on real conversations"), or null where Crux
 * finds no clear groups (bg2050: Polis split 8 people from 99; the split does not hold both ways).
 */
const FLOOR: Record<string, number | null> = {
  '15-per-hour-seattle': 0.45,
  'austria-climate.5twd2jsnkf.2022-08-08': 0.95,
  'bg2050-volunteers': null,
  'brexit-consensus': 0.85,
  'canadian-electoral-reform': 0.85,
  'scoop-hivemind.biodiversity': 0.9,
  'scoop-hivemind.taxes': 0.8,
  'ssis.land-bank-farmland.2rumnecbeh.2021-08-01': 0.95,
  'vtaiwan.uberx': 0.9,
};

describe('opinion groups on real Polis conversations', () => {
  it('has a floor for every vendored conversation', () => {
    expect(Object.keys(FLOOR).sort()).toEqual(POLIS_CONVERSATIONS);
  });

  describe.each(POLIS_CONVERSATIONS)('%s', (name) => {
    const conversation = loadPolis(name);
    const removed = [...conversation.removed];
    const votes = polisVotes(conversation);

    it("reproduces Polis's published groups, and they are not heavy against light voters", () => {
      const groups = cruxGroups(votes, removed);
      const floor = FLOOR[name];
      if (floor === null) {
        expect(groups).toBeNull();
        expect(opinionGroups(votes, removed).status).toBe('no-clear-groups');
        return;
      }
      expect(groups).not.toBeNull();
      const { ari, compared } = agreement(conversation, groups!);
      expect(compared).toBeGreaterThan(90);
      expect(ari).toBeGreaterThanOrEqual(floor!);
      // How much people vote explains little of the groups: no more than it explains of Polis's own.
      const polis = new Map(conversation.participants.filter((p) => p.group !== null).map((p) => [p.id, p.group!]));
      expect(activityExplained(conversation, groups!)).toBeLessThanOrEqual(Math.max(0.1, activityExplained(conversation, polis) + 0.05));
      // Nor do the groups follow light, middle and heavy voters (measured 0.00–0.03 on the vendored nine).
      expect(Math.abs(activityTertilesAgreement(conversation, groups!))).toBeLessThan(0.05);
    });

    it('shows no clear groups once each person’s votes are shuffled across the comments', () => {
      const random = seededRandom(7);
      const live = conversation.comments.filter((id) => !conversation.removed.has(id));
      const shuffled = conversation.participants.flatMap((p) => {
        const values = [...p.votes].filter(([id]) => !conversation.removed.has(id)).map(([, value]) => value);
        const comments = [...live];
        for (let i = comments.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [comments[i], comments[j]] = [comments[j]!, comments[i]!];
        }
        return values.map((value, i) => ({ voter: p.id, response: comments[i]!, value }));
      });
      const summary = opinionGroups(shuffled, removed);
      expect(summary.participants).toBeGreaterThanOrEqual(OPINION_GROUPS.MIN_PARTICIPANTS);
      expect(summary.status).toBe('no-clear-groups');
    });
  });

  // The server lists participants and responses by their ids (random), so the same votes reach the
  // grouping in a different order on every site: the groups must not hang on it. Before the grouping
  // started its runs from the participants sorted by place (polis-groups.ts placeOrder), 5 of 100
  // relabelings of brexit-consensus showed three groups at ARI 0.53–0.64.
  it('brexit-consensus under other ids: the same groups, whatever order the ids sort the people and comments in', () => {
    const conversation = loadPolis('brexit-consensus');
    const random = seededRandom(11);
    const newId = () =>
      Math.floor(random() * 2 ** 48)
        .toString(36)
        .padStart(10, '0');
    for (let trial = 0; trial < 12; trial++) {
      const person = new Map(conversation.participants.map((p) => [p.id, newId()]));
      const comment = new Map(conversation.comments.map((id) => [id, newId()]));
      const votes = polisVotes(conversation).map((v) => ({ ...v, voter: person.get(v.voter)!, response: comment.get(v.response)! }));
      const groups = cruxGroups(
        votes,
        [...conversation.removed].map((id) => comment.get(id)!),
      );
      expect(groups, `trial ${trial}`).not.toBeNull();
      const byOldId = new Map<string, number>();
      for (const [old, fresh] of person) {
        const group = groups!.get(fresh);
        if (group !== undefined) byOldId.set(old, group);
      }
      expect(agreement(conversation, byOldId).ari, `trial ${trial}`).toBeGreaterThanOrEqual(0.8);
    }
  });

  it.each([
    'austria-climate.5twd2jsnkf.2022-08-08',
    'scoop-hivemind.biodiversity',
    'scoop-hivemind.taxes',
    'ssis.land-bank-farmland.2rumnecbeh.2021-08-01',
    'vtaiwan.uberx',
  ])('%s with agrees only: seen and not agreed (0) kept apart from unseen (missing) still finds the groups', (name) => {
    const conversation = loadPolis(name);
    const agreesOnly = polisVotes(conversation).map((v) => ({ ...v, value: v.value === 1 ? (1 as const) : (0 as const) }));
    const groups = cruxGroups(agreesOnly, [...conversation.removed]);
    expect(groups).not.toBeNull();
    expect(agreement(conversation, groups!).ari).toBeGreaterThanOrEqual(0.55);
  });
});
