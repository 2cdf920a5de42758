// Opinion groups: people who vote alike on a topic's responses, found from the votes alone, and
// what sets each group apart. The server computes it (sync-server/src/domain/opinion-groups.ts) off
// the request path and replicates only this summary with the topic: group sizes and shares of each
// group that agreed with a response, never who is in a group or who voted what.
// Method (worked example: docs/COMMON-GROUND.md, "Opinion groups"):
//  1. participants: people with at least MIN_VOTES votes (agree, disagree or pass) on the topic's
//     responses, as in Polis; fewer than MIN_PARTICIPANTS of them → "too-few";
//  2. the vote matrix (+1, −1, 0, and missing where a person has not voted) grouped on Polis's
//     footing (./polis-groups.ts): no clear groups → "no-clear-groups";
//  3. a group approves a response when at least APPROVAL_SHARE of its members agreed with it (at
//     least two, and more of them agreed than disagreed); representative: approved by the group and
//     agreed with by less than half that share elsewhere;
//  4. consensus (common ground between the groups), as Polis: every group voted on the response (at
//     least CONSENSUS_MIN_VOTERS of its members), and in every group the chance of an agree is high
//     and of a disagree low, each estimated with a Laplace prior from the members who voted on it:
//     P(agree) = (agrees + 1) / (voted + 2) > CONSENSUS_AGREE, P(disagree) = (disagrees + 1) / (voted + 2)
//     < CONSENSUS_DISAGREE. A pass is "seen, no opinion": it adds to `voted` (so it lowers P(agree))
//     and never to the disagrees. One group disagreeing is enough to rule a response out.
import type { VoteMatrix } from './clustering.js';
import { groupParticipants } from './polis-groups.js';

export const OPINION_GROUPS = {
  /** A participant counts once they voted (agree, disagree or pass) on this many of the topic's responses (Polis: 7). */
  MIN_VOTES: 7,
  /** Groups are looked for once the topic has this many participants. */
  MIN_PARTICIPANTS: 12,
  /** Every group has at least this many people: a smaller one would say too much about too few. */
  MIN_GROUP_SIZE: 3,
  /** A group approves a response when this share of its members (and at least two) agreed with it. */
  APPROVAL_SHARE: 0.3,
  /** Consensus: the fewest members of each group who voted (agree, disagree or pass) on the response. */
  CONSENSUS_MIN_VOTERS: 3,
  /** Consensus: every group's P(agree) (Laplace prior) must be above this: a majority. */
  CONSENSUS_AGREE: 0.5,
  /** Consensus: every group's P(disagree) (Laplace prior) must be below this: no sizeable share disagrees. */
  CONSENSUS_DISAGREE: 0.25,
  /** Responses listed per group and as consensus. */
  LISTED: 3,
  /** The seed of every random choice: the same votes always give the same groups. */
  SEED: 29,
  /** A topic's groups are recomputed at most this often (ms). */
  RECOMPUTE_MS: 3 * 60_000,
} as const;

/** Format of the summary; bump when its shape changes (an older app ignores a newer version). */
export const OPINION_GROUPS_VERSION = 1;

export interface RepresentativeResponse {
  response_id: string;
  /** Share of the group's members who agreed with it (two decimals). */
  share: number;
  /** Share of everyone outside the group who agreed with it (two decimals). */
  others_share: number;
}

export interface ConsensusResponse {
  response_id: string;
  /** The smallest share of members who agreed with it among the groups (two decimals). */
  min_share: number;
}

export interface OpinionGroupsSummary {
  version: number;
  status: 'too-few' | 'no-clear-groups' | 'groups';
  /** People with at least MIN_VOTES votes on the topic's responses. */
  participants: number;
  /** Largest first; empty unless status is 'groups'. */
  groups: Array<{ size: number; representative: RepresentativeResponse[] }>;
  consensus: ConsensusResponse[];
}

/** +1 agree (an upvote), −1 disagree, 0 pass (read, no opinion). */
export type VoteValue = 1 | -1 | 0;

/** One live vote on one response of the topic; no value is an agree (an upvote). */
export interface ResponseVote {
  voter: string;
  response: string;
  value?: VoteValue;
}

/** An agree without its value: what the summary read before disagree and pass existed. */
export type Upvote = Omit<ResponseVote, 'value'>;

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The participants (people with MIN_VOTES votes), sorted, and the vote matrix of everyone who voted
 * (the participants first, in the same order; responses sorted; a response not voted on is missing).
 * `removed`: responses a moderator took out, read as a pass from everyone as Polis does (it zeroes
 * their column), which only lowers the weight of each person's votes; a vote cast on one before it
 * was removed still counts toward MIN_VOTES, as in Polis.
 */
export function voteMatrix(
  votes: readonly ResponseVote[],
  removed: readonly string[] = [],
): { voters: string[]; responses: string[]; matrix: VoteMatrix; counted: boolean[] } {
  const out = new Set(removed);
  const byVoter = new Map<string, Map<string, VoteValue>>();
  for (const { voter, response, value } of votes) {
    let row = byVoter.get(voter);
    if (!row) byVoter.set(voter, (row = new Map()));
    row.set(response, value ?? 1);
  }
  const responses = [...new Set([...votes.map((v) => v.response), ...out])].sort();
  // As in Polis: MIN_VOTES, or every response when the topic has fewer.
  const enough = Math.min(OPINION_GROUPS.MIN_VOTES, responses.length);
  const all = [...byVoter.keys()].sort();
  const voters = all.filter((v) => byVoter.get(v)!.size >= enough);
  const others = all.filter((v) => byVoter.get(v)!.size < enough);
  const column = new Map(responses.map((id, j) => [id, j]));
  const rows = [...voters, ...others].map((v) => {
    const row = byVoter.get(v)!;
    for (const id of out) row.set(id, 0);
    const entries = [...row].map(([id, value]) => [column.get(id)!, value] as const).sort((x, y) => x[0] - y[0]);
    return { columns: Int32Array.from(entries, (e) => e[0]), values: Int8Array.from(entries, (e) => e[1]) };
  });
  return { voters, responses, matrix: { rows, columns: responses.length }, counted: rows.map((_, i) => i < voters.length) };
}

/**
 * Whether one group holds a response as common ground (Polis's consensus test): enough of its members
 * voted on it, P(agree) with a Laplace prior is a majority and P(disagree) is small. Passes count in
 * `voted` only.
 */
export function isConsensusIn(agrees: number, disagrees: number, voted: number): boolean {
  if (voted < OPINION_GROUPS.CONSENSUS_MIN_VOTERS) return false;
  return (agrees + 1) / (voted + 2) > OPINION_GROUPS.CONSENSUS_AGREE && (disagrees + 1) / (voted + 2) < OPINION_GROUPS.CONSENSUS_DISAGREE;
}

/** The topic's summary from its live votes (any order: participants and responses are sorted first). */
export function opinionGroups(votes: readonly ResponseVote[], removed: readonly string[] = []): OpinionGroupsSummary {
  const { voters, responses, matrix, counted } = voteMatrix(votes, removed);
  const empty = { version: OPINION_GROUPS_VERSION, participants: voters.length, groups: [], consensus: [] };
  if (voters.length < OPINION_GROUPS.MIN_PARTICIPANTS) return { ...empty, status: 'too-few' };
  const found = groupParticipants(matrix, counted, OPINION_GROUPS.MIN_GROUP_SIZE, OPINION_GROUPS.SEED);
  if (!found) return { ...empty, status: 'no-clear-groups' };

  // Number the groups by size, largest first (ties: the group of the earliest participant).
  const { k, labels } = found;
  const sizes = new Array<number>(k).fill(0);
  for (const label of labels) sizes[label]!++;
  const order = [...Array(k).keys()].sort((a, b) => sizes[b]! - sizes[a]! || labels.indexOf(a) - labels.indexOf(b));
  // agrees[g][j] / disagrees[g][j] / voted[g][j]: members of group g who agreed with / disagreed with
  // / voted anything (pass included) on response j.
  const agrees = order.map(() => new Array<number>(responses.length).fill(0));
  const disagrees = order.map(() => new Array<number>(responses.length).fill(0));
  const voted = order.map(() => new Array<number>(responses.length).fill(0));
  const total = new Array<number>(responses.length).fill(0);
  labels.forEach((label, i) => {
    const g = order.indexOf(label);
    const { columns, values } = matrix.rows[i]!;
    for (let e = 0; e < columns.length; e++) {
      const j = columns[e]!;
      voted[g]![j]!++;
      if (values[e] === 1) {
        agrees[g]![j]!++;
        total[j]!++;
      } else if (values[e] === -1) disagrees[g]![j]!++;
    }
  });
  const groupSizes = order.map((label) => sizes[label]!);
  const n = voters.length;
  // A group approves a response most of its voters on it agreed with, and enough of its members.
  const approves = (g: number, j: number) =>
    agrees[g]![j]! >= 2 && agrees[g]![j]! > disagrees[g]![j]! && agrees[g]![j]! / groupSizes[g]! >= OPINION_GROUPS.APPROVAL_SHARE;
  const byResponse = (a: { response_id: string }, b: { response_id: string }) => (a.response_id < b.response_id ? -1 : 1);

  const groups = groupSizes.map((size, g) => {
    const representative: RepresentativeResponse[] = [];
    responses.forEach((id, j) => {
      const share = agrees[g]![j]! / size;
      const othersShare = (total[j]! - agrees[g]![j]!) / (n - size);
      if (approves(g, j) && othersShare < share / 2) {
        representative.push({ response_id: id, share: round2(share), others_share: round2(othersShare) });
      }
    });
    representative.sort((a, b) => b.share - b.others_share - (a.share - a.others_share) || byResponse(a, b));
    return { size, representative: representative.slice(0, OPINION_GROUPS.LISTED) };
  });
  const consensus: ConsensusResponse[] = [];
  responses.forEach((id, j) => {
    if (groupSizes.every((_, g) => isConsensusIn(agrees[g]![j]!, disagrees[g]![j]!, voted[g]![j]!))) {
      consensus.push({ response_id: id, min_share: round2(Math.min(...groupSizes.map((size, g) => agrees[g]![j]! / size))) });
    }
  });
  consensus.sort((a, b) => b.min_share - a.min_share || byResponse(a, b));
  return { ...empty, status: 'groups', groups, consensus: consensus.slice(0, OPINION_GROUPS.LISTED) };
}

const STATUSES = ['too-few', 'no-clear-groups', 'groups'] as const;
const isShare = (x: unknown): x is number => typeof x === 'number' && x >= 0 && x <= 1;
const isId = (x: unknown): x is string => typeof x === 'string' && x.length > 0;

/**
 * The replicated summary (TopicDoc.opinion_groups) read back: null when absent, of another version
 * (a newer server: an older app shows nothing rather than a misread), or malformed.
 */
export function parseOpinionGroups(text: string | null | undefined): OpinionGroupsSummary | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const v = value as Partial<OpinionGroupsSummary> | null;
  if (!v || v.version !== OPINION_GROUPS_VERSION || !STATUSES.includes(v.status as never)) return null;
  if (!Number.isInteger(v.participants) || !Array.isArray(v.groups) || !Array.isArray(v.consensus)) return null;
  const groupsOk = v.groups.every(
    (g) =>
      Number.isInteger(g?.size) &&
      Array.isArray(g.representative) &&
      g.representative.every((r) => isId(r?.response_id) && isShare(r.share) && isShare(r.others_share)),
  );
  const consensusOk = v.consensus.every((c) => isId(c?.response_id) && isShare(c.min_share));
  return groupsOk && consensusOk ? (v as OpinionGroupsSummary) : null;
}
