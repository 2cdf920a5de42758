// Users on PostgreSQL: the SQLite repository's queries (store/sqlite/users-repo.ts).
import { persuasionPoints } from '../../../../shared/rules/deltas.js';
import type { UserResponse, UserTopic } from '../../../../shared/types.js';
import type { UsersRepo } from '../types.js';
import type { PgQueries } from './queries.js';
import type { LeaderboardRow, UserRow } from '../rows.js';
import { COUNTED_DELTAS, LEADERBOARD, PARTICIPANTS_NAMED, RECOUNT_POINTS, REMEMBER_USER, RESPONSES_BY, TOPICS_BY } from '../sql.js';

export function createPgUsersRepo(q: PgQueries): UsersRepo {
  const get = (uid: string) => q.row<UserRow>('SELECT * FROM users WHERE uid = $1', [uid]);
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
      if (seq) await q.run('UPDATE users SET seq = $1 WHERE uid = $2', [await seq(), uid]);
      return true;
    },
    async addPoints(uid, delta, seq) {
      if (delta === 0) return false;
      return (await q.run('UPDATE users SET points = points + $1, seq = $2 WHERE uid = $3', [delta, await seq(), uid])) > 0;
    },
    async refreshPersuasionPoints(uid, seq) {
      const user = await get(uid);
      if (!user) return false;
      // One per creditor and topic, counted credits only; never their own.
      const received = await q.row<{ n: number }>(COUNTED_DELTAS.pg, [uid]);
      const persuasion = persuasionPoints(received!.n);
      if (persuasion === user.persuasion_points) return false;
      await q.run('UPDATE users SET points = points - persuasion_points + $2, persuasion_points = $2, seq = $3 WHERE uid = $1', [
        uid,
        persuasion,
        await seq(),
      ]);
      return true;
    },
    rankFor: async (points) => (await q.row<{ rank: number }>('SELECT count(*) + 1 AS rank FROM users WHERE points > $1', [points]))!.rank,
    leaderboard: (limit) => q.rows<LeaderboardRow>(LEADERBOARD.pg, [limit]),
    topicsBy: (uid, limit) => q.rows<UserTopic>(TOPICS_BY.pg, [uid, limit]),
    responsesBy: (uid, limit) => q.rows<UserResponse>(RESPONSES_BY.pg, [uid, limit]),
    changeNumber: async () => (await q.row<{ value: number }>("SELECT value FROM crux_meta WHERE key = 'seq'"))?.value ?? 0,
    async setPushSettings(uid, json, seq) {
      await q.run('UPDATE users SET push_settings = $1, seq = $2 WHERE uid = $3', [json, seq, uid]);
    },
    async setWeeklySummary(uid, value, seq) {
      await q.run('UPDATE users SET receive_weekly_summary = $1, seq = $2 WHERE uid = $3', [value ? 1 : 0, seq, uid]);
    },
    changedSince: (uid, seq) => q.row<UserRow>('SELECT * FROM users WHERE uid = $1 AND seq > $2', [uid, seq]),
    participantsNamed: async (topicId, names) =>
      names.length === 0 ? [] : q.rows<{ uid: string; name: string }>(PARTICIPANTS_NAMED.pg, [names, topicId]),
  };
}
