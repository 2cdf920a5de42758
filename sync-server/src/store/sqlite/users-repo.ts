// Users as the server knows them: uid, display name (from the token), points, preferences.
import type { Role } from '../../../../shared/constants.js';
import type { UserResponse, UserTopic } from '../../../../shared/types.js';
import { persuasionPoints } from '../../../../shared/rules/deltas.js';
import type Database from 'better-sqlite3';
import type { Db } from './connection.js';
import type { LeaderboardRow, UserRow } from '../rows.js';
import {
  ADD_POINTS,
  COUNTED_DELTAS,
  GET_USER,
  LEADERBOARD,
  PARTICIPANTS_NAMED,
  RANK_OF_POINTS,
  RECOUNT_POINTS,
  REMEMBER_USER,
  RESPONSES_BY,
  RESTAMP_USER,
  SET_PERSUASION_POINTS,
  SET_PUSH_SETTINGS,
  SET_WEEKLY_SUMMARY,
  WEEKLY_SUMMARY_SINCE,
  TOPICS_BY,
  USER_IF_CHANGED,
} from '../sql.js';

export function createUsersRepo(db: Db) {
  const upsert = db.prepare<{
    uid: string;
    display_name: string | null;
    email: string | null;
    email_verified: number;
    role: Role;
    created_at: string;
    seq: number;
  }>(REMEMBER_USER.sqlite);
  const get = db.prepare<[string], UserRow>(GET_USER.sqlite);
  const refreshPoints = db.prepare<[string]>(RECOUNT_POINTS.sqlite);
  const stamp = db.prepare<[number, string]>(RESTAMP_USER.sqlite);
  const addPoints = db.prepare<[number, number, string]>(ADD_POINTS.sqlite);
  const rankOf = db.prepare<[number], { rank: number }>(RANK_OF_POINTS.sqlite);
  const leaderboard = db.prepare<[number], LeaderboardRow>(LEADERBOARD.sqlite);
  // Δ received that count: one per creditor and topic, however often that person changed their mind
  // and credited again (no farming points by flip-flopping); never their own.
  const deltasReceived = db.prepare<[string], { n: number }>(COUNTED_DELTAS.sqlite);
  const writePersuasion = db.prepare<{ uid: string; persuasion: number; seq: number }>(SET_PERSUASION_POINTS.sqlite);
  const topicsBy = db.prepare<[string, number], UserTopic>(TOPICS_BY.sqlite);
  const responsesBy = db.prepare<[string, number], UserResponse>(RESPONSES_BY.sqlite);
  // Prepared at first use: rarely run (a preference change, an unsubscribe click), and so the store
  // still opens on a schema older than migration 018 (tests/sync-server/query-plans.test.ts explains
  // every statement on one).
  let setPreference: Database.Statement<{ on: number; seq: number; uid: string; now: string }> | undefined;
  let summarySince: Database.Statement<[string], { weekly_summary_since: string | null }> | undefined;
  const setPushSettings = db.prepare<[string, number, string]>(SET_PUSH_SETTINGS.sqlite);
  const changeNumber = db.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'seq'");
  const changedSince = db.prepare<[string, number], UserRow>(USER_IF_CHANGED.sqlite);
  const participantsNamed = db.prepare<{ names: string; topic: string }, { uid: string; name: string }>(PARTICIPANTS_NAMED.sqlite);

  return {
    get: (uid: string) => get.get(uid),
    /** Records the caller as the verified token describes them; returns true if anything changed. */
    async remember(
      user: { uid: string; name: string | null; email: string | null; emailVerified?: boolean; role?: Role },
      now: string,
      seq: () => Promise<number>,
    ): Promise<boolean> {
      const existing = get.get(user.uid);
      const verified = user.emailVerified ? 1 : 0;
      const role = user.role ?? 'member';
      if (
        existing &&
        existing.display_name === user.name &&
        existing.email === user.email &&
        existing.email_verified === verified &&
        existing.role === role
      )
        return false;
      upsert.run({
        role,
        uid: user.uid,
        display_name: user.name,
        email: user.email,
        email_verified: verified,
        created_at: now,
        seq: await seq(),
      });
      return true;
    },
    /** Recounts the points; when they changed and `seq` is given, stamps a new seq (points replicate live). */
    async refreshPoints(uid: string, seq?: () => Promise<number>): Promise<boolean> {
      const before = get.get(uid)?.points;
      refreshPoints.run(uid);
      const after = get.get(uid)?.points;
      if (before === after) return false;
      if (seq) stamp.run(await seq(), uid);
      return true;
    },
    /** Adds to the stored points (votes given or taken back by others) and stamps a new seq: O(1). */
    async addPoints(uid: string, delta: number, seq: () => Promise<number>): Promise<boolean> {
      if (delta === 0) return false;
      return addPoints.run(delta, await seq(), uid).changes > 0;
    },
    /**
     * Recounts the persuasion points (the Δ credits that count, COUNTED_DELTAS) and moves `points` by
     * the difference; when they changed, stamps a new seq (the profile replicates) and returns true.
     */
    async refreshPersuasionPoints(uid: string, seq: () => Promise<number>): Promise<boolean> {
      const user = get.get(uid);
      if (!user) return false;
      const persuasion = persuasionPoints(deltasReceived.get(uid)!.n);
      if (persuasion === user.persuasion_points) return false;
      writePersuasion.run({ uid, persuasion, seq: await seq() });
      return true;
    },
    rankFor: (points: number) => rankOf.get(points)!.rank,
    leaderboard: (limit: number) => leaderboard.all(limit),
    /** The user's live topics, newest first (the user page). */
    topicsBy: (uid: string, limit: number) => topicsBy.all(uid, limit),
    /** The user's live responses in live topics, newest first, with their topic's title. */
    responsesBy: (uid: string, limit: number) => responsesBy.all(uid, limit),
    setWeeklySummary: (uid: string, value: boolean, seq: number, now: string) =>
      (setPreference ??= db.prepare(SET_WEEKLY_SUMMARY.sqlite)).run({ on: value ? 1 : 0, seq, uid, now }),
    weeklySummarySince: (uid: string) => (summarySince ??= db.prepare(WEEKLY_SUMMARY_SINCE.sqlite)).get(uid)?.weekly_summary_since ?? null,
    setPushSettings: (uid: string, json: string, seq: number) => setPushSettings.run(json, seq, uid),
    changeNumber: () => changeNumber.get()?.value ?? 0,
    changedSince: (uid: string, seq: number) => changedSince.get(uid, seq),
    participantsNamed: (topicId: string, names: readonly string[]) =>
      names.length === 0 ? [] : participantsNamed.all({ names: JSON.stringify(names), topic: topicId }),
  };
}
