// Opinion groups: people who upvote alike, found from the votes alone, and what sets
// each group apart. The server computes it (sync-server/src/domain/opinion-groups.ts) off the
// request path and replicates only this summary with the topic: group sizes and shares of each
// group that upvoted a response, never who is in a group or who voted what.
// Method (worked example: docs/COMMON-GROUND.md, "Opinion groups"):
//  1. participants: people with at least MIN_VOTES live upvotes on the topic's responses; fewer
//     than MIN_PARTICIPANTS of them → "too-few";
//  2. the participant × response 0/1 upvote matrix, centred by column, projected on its top three
//     principal components (shared/rules/clustering.ts);
//  3. k-means for k = 2, 3, 4 (seeded); the k with the best mean silhouette wins; below
//     CLEAR_SILHOUETTE, or with a group under MIN_GROUP_SIZE people → "no-clear-groups";
//  4. a group approves a response when at least APPROVAL_SHARE of its members upvoted it (and at
//     least two); representative: approved by the group and by less than half that share elsewhere;
//     consensus: approved by every group.
import { kMeans, principalCoordinates, seededRandom, silhouette } from './clustering.js';

export const OPINION_GROUPS = {
  /** A participant counts once they upvoted this many of the topic's responses. */
  MIN_VOTES: 3,
  /** Groups are looked for once the topic has this many participants. */
  MIN_PARTICIPANTS: 12,
  /** Every group has at least this many people: a smaller one would say too much about too few. */
  MIN_GROUP_SIZE: 3,
  /**
   * Below this mean silhouette the votes show no clear groups: random votes score about 0.25–0.33 in
   * the tests' seeded topics, planted groups 0.52–0.66 (tests/shared/opinion-groups.test.ts).
   */
  CLEAR_SILHOUETTE: 0.45,
  /** A group approves a response when this share of its members (and at least two) upvoted it. */
  APPROVAL_SHARE: 0.3,
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
  /** Share of the group's members who upvoted it (two decimals). */
  share: number;
  /** Share of everyone outside the group who upvoted it (two decimals). */
  others_share: number;
}

export interface ConsensusResponse {
  response_id: string;
  /** The smallest share of upvoters among the groups (two decimals). */
  min_share: number;
}

export interface OpinionGroupsSummary {
  version: number;
  status: 'too-few' | 'no-clear-groups' | 'groups';
  /** People with at least MIN_VOTES upvotes on the topic's responses. */
  participants: number;
  /** Largest first; empty unless status is 'groups'. */
  groups: Array<{ size: number; representative: RepresentativeResponse[] }>;
  consensus: ConsensusResponse[];
}

/** One live upvote of one response of the topic. */
export interface Upvote {
  voter: string;
  response: string;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The participants' labels (one per participant, 0..k-1) and k, or why there are none. */
export function groupParticipants(
  matrix: { rows: number[][]; columns: number },
  seed: number = OPINION_GROUPS.SEED,
): { labels: number[]; k: number; silhouette: number } | null {
  const random = seededRandom(seed);
  const coordinates = principalCoordinates(matrix, random, 3);
  let best: { labels: number[]; k: number; silhouette: number } | null = null;
  for (let k = 2; k <= 4 && k < coordinates.length; k++) {
    // k groups differ along at most k − 1 directions: the further components would only add noise.
    const points = coordinates;
    const labels = kMeans(points, k, random);
    const sizes = new Array<number>(k).fill(0);
    for (const label of labels) sizes[label]!++;
    if (Math.min(...sizes) < OPINION_GROUPS.MIN_GROUP_SIZE) continue;
    const score = silhouette(points, labels, k);
    if (!best || score > best.silhouette) best = { labels, k, silhouette: score };
  }
  return best && best.silhouette >= OPINION_GROUPS.CLEAR_SILHOUETTE ? best : null;
}

/** The topic's summary from its live upvotes (any order: participants and responses are sorted first). */
export function opinionGroups(upvotes: readonly Upvote[]): OpinionGroupsSummary {
  const byVoter = new Map<string, Set<string>>();
  for (const { voter, response } of upvotes) {
    let set = byVoter.get(voter);
    if (!set) byVoter.set(voter, (set = new Set()));
    set.add(response);
  }
  const voters = [...byVoter.keys()].filter((v) => byVoter.get(v)!.size >= OPINION_GROUPS.MIN_VOTES).sort();
  const empty = { version: OPINION_GROUPS_VERSION, participants: voters.length, groups: [], consensus: [] };
  if (voters.length < OPINION_GROUPS.MIN_PARTICIPANTS) return { ...empty, status: 'too-few' };

  const responses = [...new Set(voters.flatMap((v) => [...byVoter.get(v)!]))].sort();
  const column = new Map(responses.map((id, j) => [id, j]));
  const rows = voters.map((v) => [...byVoter.get(v)!].map((id) => column.get(id)!).sort((a, b) => a - b));
  const found = groupParticipants({ rows, columns: responses.length });
  if (!found) return { ...empty, status: 'no-clear-groups' };

  // Number the groups by size, largest first (ties: the group of the earliest participant).
  const { k, labels } = found;
  const sizes = new Array<number>(k).fill(0);
  for (const label of labels) sizes[label]!++;
  const order = [...Array(k).keys()].sort((a, b) => sizes[b]! - sizes[a]! || labels.indexOf(a) - labels.indexOf(b));
  // counts[g][j]: members of group g who upvoted response j.
  const counts = order.map(() => new Array<number>(responses.length).fill(0));
  const total = new Array<number>(responses.length).fill(0);
  rows.forEach((row, i) => {
    const g = order.indexOf(labels[i]!);
    for (const j of row) {
      counts[g]![j]!++;
      total[j]!++;
    }
  });
  const groupSizes = order.map((label) => sizes[label]!);
  const n = voters.length;
  const approves = (g: number, j: number) => counts[g]![j]! >= 2 && counts[g]![j]! / groupSizes[g]! >= OPINION_GROUPS.APPROVAL_SHARE;
  const byResponse = (a: { response_id: string }, b: { response_id: string }) => (a.response_id < b.response_id ? -1 : 1);

  const groups = groupSizes.map((size, g) => {
    const representative: RepresentativeResponse[] = [];
    responses.forEach((id, j) => {
      const share = counts[g]![j]! / size;
      const othersShare = (total[j]! - counts[g]![j]!) / (n - size);
      if (approves(g, j) && othersShare < share / 2) {
        representative.push({ response_id: id, share: round2(share), others_share: round2(othersShare) });
      }
    });
    representative.sort((a, b) => b.share - b.others_share - (a.share - a.others_share) || byResponse(a, b));
    return { size, representative: representative.slice(0, OPINION_GROUPS.LISTED) };
  });
  const consensus: ConsensusResponse[] = [];
  responses.forEach((id, j) => {
    if (groupSizes.every((_, g) => approves(g, j))) {
      consensus.push({ response_id: id, min_share: round2(Math.min(...groupSizes.map((size, g) => counts[g]![j]! / size))) });
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
