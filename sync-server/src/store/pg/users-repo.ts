// Users on PostgreSQL: the SQLite repository's queries (store/sqlite/users-repo.ts).
import { persuasionPoints } from '../../../../shared/rules/deltas.js';
import type { UserResponse, UserTopic } from '../../../../shared/types.js';
import type { LeaderboardRow, UserRow, UsersRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
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

export function createPgUsersRepo(q: PgQueries): UsersRepo {
  const get = (uid: string) => q.row<UserRow>(GET_USER.pg, [uid]);
  return {
    get,
    async remember(user, now, seq) {
      const existing = await get(user.uid);
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
      await q.run(REMEMBER_USER.pg, [user.uid, user.name, user.email, verified, role, now, await seq()]);
      return true;
    },
    async refreshPoints(uid, seq) {
      const before = (await get(uid))?.points;
      await q.run(RECOUNT_POINTS.pg, [uid]);
      const after = (await get(uid))?.points;
      if (before === after) return false;
      if (seq) await q.run(RESTAMP_USER.pg, [await seq(), uid]);
      return true;
    },
    async addPoints(uid, delta, seq) {
      if (delta === 0) return false;
      return (await q.run(ADD_POINTS.pg, [delta, await seq(), uid])) > 0;
    },
    async refreshPersuasionPoints(uid, seq) {
      const user = await get(uid);
      if (!user) return false;
      // One per creditor and topic, counted credits only; never their own.
      const received = await q.row<{ n: number }>(COUNTED_DELTAS.pg, [uid]);
      const persuasion = persuasionPoints(received!.n);
      if (persuasion === user.persuasion_points) return false;
      await q.run(SET_PERSUASION_POINTS.pg, [persuasion, await seq(), uid]);
      return true;
    },
    rankFor: async (points) => (await q.row<{ rank: number }>(RANK_OF_POINTS.pg, [points]))!.rank,
    leaderboard: (limit) => q.rows<LeaderboardRow>(LEADERBOARD.pg, [limit]),
    topicsBy: (uid, limit) => q.rows<UserTopic>(TOPICS_BY.pg, [uid, limit]),
    responsesBy: (uid, limit) => q.rows<UserResponse>(RESPONSES_BY.pg, [uid, limit]),
    changeNumber: async () => (await q.row<{ value: number }>("SELECT value FROM crux_meta WHERE key = 'seq'"))?.value ?? 0,
    async setPushSettings(uid, json, seq) {
      await q.run(SET_PUSH_SETTINGS.pg, [json, seq, uid]);
    },
    async setWeeklySummary(uid, value, seq, now) {
      // SET_WEEKLY_SUMMARY's parameters in their first use: on, now, seq, uid.
      await q.run(SET_WEEKLY_SUMMARY.pg, [value ? 1 : 0, now, seq, uid]);
    },
    weeklySummarySince: async (uid) =>
      (await q.row<{ weekly_summary_since: string | null }>(WEEKLY_SUMMARY_SINCE.pg, [uid]))?.weekly_summary_since ?? null,
    changedSince: (uid, seq) => q.row<UserRow>(USER_IF_CHANGED.pg, [uid, seq]),
    participantsNamed: async (topicId, names) =>
      names.length === 0 ? [] : q.rows<{ uid: string; name: string }>(PARTICIPANTS_NAMED.pg, [names, topicId]),
  };
}
