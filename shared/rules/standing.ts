// Standing: who may move others' points. A Δ credit earns its author persuasion points
// only when the person giving it has standing at that moment: an account the server first saw at
// least STANDING_MIN_AGE_DAYS ago, with at least STANDING_MIN_POINTS points. The moderation step
// reuses this definition. docs/COMMON-GROUND.md states the amounts and the limits.

/** Days since the server first saw the account (users.created_at). */
export const STANDING_MIN_AGE_DAYS = 3;
/** Points the account holds (upvotes by others and persuasion points). */
export const STANDING_MIN_POINTS = 5;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether an account with these first-seen time and points has standing at `now` (ISO times). */
export function hasStanding(user: { created_at: string; points: number }, now: string): boolean {
  const age = Date.parse(now) - Date.parse(user.created_at);
  return age >= STANDING_MIN_AGE_DAYS * DAY_MS && user.points >= STANDING_MIN_POINTS;
}
