// The CruxData the screens get when the local database cannot open: every read errors
// and every write rejects with the reason, so the pages show 'Error: …' and the forms say why.
import { of, throwError, type Observable } from 'rxjs';
import type { CruxData } from '../data';

export function unavailableData(reason: string): CruxData {
  const failing = <T>(): Observable<T> => throwError(() => new Error(reason));
  const rejecting = <T>(): Promise<T> => Promise.reject(new Error(reason));
  // Nothing was opened, so there is nothing to close or sign out of.
  const nothingToDo = (): Promise<void> => Promise.resolve();
  return {
    signIn: rejecting,
    signOut: nothingToDo,
    uid$: of(null),
    status$: failing(),
    topics$: failing,
    topic$: failing,
    rootResponses$: failing,
    replies$: failing,
    topicResponses$: failing,
    responseBalance$: failing,
    stance$: failing,
    ancestorPath: rejecting,
    notifications$: failing,
    unreadCount$: failing,
    preferences$: failing,
    syncProblems$: failing,
    savedTopics$: failing,
    searchSources: rejecting,
    sources$: failing,
    sourceCitations: rejecting,
    leaderboard$: failing,
    userProfile$: failing,
    score$: () => of(null),
    createTopic: rejecting,
    deleteTopic: rejecting,
    createResponse: rejecting,
    editResponse: rejecting,
    deleteResponse: rejecting,
    toggleVote: rejecting,
    setStance: rejecting,
    creditDeltas: rejecting,
    markRead: rejecting,
    markAllRead: rejecting,
    setWeeklySummary: rejecting,
    saveDraft: rejecting,
    loadDraft: rejecting,
    deleteDraft: rejecting,
    openTopic: rejecting,
    saveTopicOffline: rejecting,
    fixProblem: rejecting,
    discardProblem: rejecting,
    resolveConflict: rejecting,
    exportMyData: rejecting,
    importDrafts: rejecting,
    close: nothingToDo,
  };
}
