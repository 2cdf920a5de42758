// A deleted account's rows on SQLite (domain/account.ts): read what it held, then delete it.
import type { Db } from './connection.js';
import type { VoteRow } from '../rows.js';
import {
  CREDITS_GIVEN_BY,
  DEFAULT_PUSH_SETTINGS_JSON,
  DELETE_OWN_ROWS,
  DROP_ORIGINALS_OF,
  DROP_VERSIONS_OF,
  LIVE_RESPONSES_BY,
  LIVE_TOPICS_BY,
  LIVE_VOTES_BY,
  RESTAMP_NOTIFICATIONS_BY,
  STANCE_TOPICS_BY,
  STUB_USER,
} from '../sql.js';

export function createAccountsRepo(db: Db) {
  const votes = db.prepare<[string], VoteRow>(LIVE_VOTES_BY.sqlite);
  const stanceTopics = db.prepare<[string], { topic_id: string }>(STANCE_TOPICS_BY.sqlite);
  const credits = db.prepare<[string], { response_id: string; topic_id: string; author_uid: string }>(CREDITS_GIVEN_BY.sqlite);
  const topics = db.prepare<[string], { id: string }>(LIVE_TOPICS_BY.sqlite);
  const responses = db.prepare<[string], { id: string; topic_id: string }>(LIVE_RESPONSES_BY.sqlite);
  const dropOriginals = db.prepare<[string, string]>(DROP_ORIGINALS_OF.sqlite);
  const dropVersions = db.prepare<[string]>(DROP_VERSIONS_OF.sqlite);
  const ownRows = DELETE_OWN_ROWS.map((statement) => db.prepare<[string]>(statement.sqlite));
  const restampNotifications = db.prepare<[number, string], { recipient_uid: string }>(RESTAMP_NOTIFICATIONS_BY.sqlite);
  const stub = db.prepare<[string, string, string, number, string]>(STUB_USER.sqlite);
  return {
    liveVotesBy: (uid: string) => votes.all(uid),
    stanceTopicsBy: (uid: string) => stanceTopics.all(uid).map((row) => row.topic_id),
    creditsGivenBy: (uid: string) => credits.all(uid),
    liveTopicsBy: (uid: string) => topics.all(uid).map((row) => row.id),
    liveResponsesBy: (uid: string) => responses.all(uid),
    dropOriginalsOf(uid: string) {
      dropOriginals.run(uid, uid);
      dropVersions.run(uid);
    },
    restampNotificationsBy: (uid: string, seq: number) => [...new Set(restampNotifications.all(seq, uid).map((row) => row.recipient_uid))],
    deleteOwnRows(uid: string) {
      for (const statement of ownRows) statement.run(uid);
    },
    stub(uid: string, label: string, now: string, seq: number) {
      stub.run(label, DEFAULT_PUSH_SETTINGS_JSON, now, seq, uid);
    },
  };
}
