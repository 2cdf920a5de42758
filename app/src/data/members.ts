// Every member of CruxData and its kind, listed once. The layers that stand in for the data layer
// or sit in front of it are built from this table, member by member: the deferred layer (what it
// forwards, and how), the stand-in when the database cannot open (what fails, what is a no-op), the
// test fake (what a screen gets by default), and the real one (which calls wait for the sign-in
// under way, session.ts). A member added to CruxData without a row here does not compile.
// Types only from the data layer: the entry imports this before the data layer's chunk loads.
import type { CruxData } from './api.js';

export type MemberKind =
  /** An observable itself (status$). */
  | 'value'
  /** uid$: who is signed in (an observable itself). With no database open, nobody. */
  | 'identity'
  /** A function returning a live read (an observable). */
  | 'read'
  /** A read shown on every page (the header's score): with no database open it shows nothing (null), not an error. */
  | 'quiet-read'
  /** A function returning a promise that needs no signed-in user, or only one already on screen (a sync problem). */
  | 'call'
  /**
   * A function returning a promise made as the signed-in user (their own data, and every write):
   * it waits for a sign-in under way (session.ts), or on a reload a click made before the user's
   * database opened would be refused as "log in" and lost.
   */
  | 'user-call'
  /** signOut and close: with no database open there is nothing to close, so they resolve. */
  | 'teardown';

export const CRUX_DATA_MEMBERS = {
  signIn: 'call',
  signOut: 'teardown',
  uid$: 'identity',
  status$: 'value',

  topics$: 'read',
  topic$: 'read',
  rootResponses$: 'read',
  replies$: 'read',
  topicResponses$: 'read',
  responseBalance$: 'read',
  stance$: 'read',
  ancestorPath: 'call',
  notifications$: 'read',
  unreadCount$: 'read',
  preferences$: 'read',
  pushSettings$: 'read',
  syncProblems$: 'read',
  savedTopics$: 'read',
  sourceCitations: 'call',
  searchSources: 'call',
  sources$: 'read',
  leaderboard$: 'read',
  userProfile$: 'read',
  score$: 'quiet-read',
  blockedUsers$: 'read',
  blockedUids$: 'quiet-read',
  follows$: 'quiet-read',
  myAccount$: 'quiet-read',
  moderationQueue: 'user-call',
  moderate: 'user-call',
  moderationLog: 'user-call',
  moderatedOriginal: 'user-call',
  setUserRole: 'user-call',
  pushPublicKey: 'call',
  savePushSubscription: 'user-call',
  removePushSubscription: 'user-call',
  confirmUnsubscribe: 'call',

  createTopic: 'user-call',
  deleteTopic: 'user-call',
  createResponse: 'user-call',
  editResponse: 'user-call',
  deleteResponse: 'user-call',
  toggleVote: 'user-call',
  castVote: 'user-call',
  setStance: 'user-call',
  creditDeltas: 'user-call',
  blockUser: 'user-call',
  unblockUser: 'user-call',
  followTopic: 'user-call',
  unfollowTopic: 'user-call',
  report: 'user-call',
  markRead: 'user-call',
  markAllRead: 'user-call',
  setWeeklySummary: 'user-call',
  setPushSettings: 'user-call',
  saveDraft: 'user-call',
  loadDraft: 'user-call',
  deleteDraft: 'user-call',
  exportMyData: 'user-call',
  importDrafts: 'user-call',
  openTopic: 'call',
  saveTopicOffline: 'call',
  fixProblem: 'call',
  resolveConflict: 'call',
  discardProblem: 'call',

  close: 'teardown',
} as const satisfies Record<keyof CruxData, MemberKind>;

/**
 * A CruxData built member by member from each one's kind. The builder answers for the signatures
 * (a member of a kind has the shape the kind says); the table's `satisfies` that none is missing.
 */
export function buildByKind(member: (key: keyof CruxData, kind: MemberKind) => unknown): CruxData {
  const data: Partial<Record<keyof CruxData, unknown>> = {};
  for (const key of Object.keys(CRUX_DATA_MEMBERS) as (keyof CruxData)[]) data[key] = member(key, CRUX_DATA_MEMBERS[key]);
  return data as CruxData;
}
