// Auto-hide: the automatic first line of moderation (sync-server domain/reports.ts). An item is
// hidden pending review when enough reporters with standing report it, where a reporter's standing
// counts only the points given by accounts outside the reporting group that have standing themselves
// (standing.ts): a ring of fresh accounts that upvote each other earns nothing here.
// docs/MODERATION.md states the rules.

/** A topic needs this many times the reporters a response needs (AUTO_HIDE_REPORTS): its title hides a whole debate. */
export const AUTO_HIDE_TOPIC_FACTOR = 2;

/** Auto-hides one reporter's reports may take part in within 24 hours; past it their reports still reach moderators. */
export const AUTO_HIDES_PER_REPORTER_PER_DAY = 3;

/** Reporters whose accounts were made within this many hours of each other are flagged to moderators (one person, perhaps). */
export const CLOSE_ACCOUNTS_HOURS = 24;

/** Distinct reporters that hide an item of this type, given AUTO_HIDE_REPORTS (what a response needs). */
export const autoHideReporters = (type: 'topic' | 'response', responseReporters: number): number =>
  type === 'topic' ? responseReporters * AUTO_HIDE_TOPIC_FACTOR : responseReporters;

/**
 * The most accounts among `createdAt` (ISO times) made within CLOSE_ACCOUNTS_HOURS of each other:
 * the largest group a window of that width holds.
 */
export function closeAccounts(createdAt: readonly string[]): number {
  const times = createdAt.map((time) => Date.parse(time)).sort((a, b) => a - b);
  const width = CLOSE_ACCOUNTS_HOURS * 60 * 60 * 1000;
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! > width) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
