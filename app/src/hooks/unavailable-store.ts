// The store the screens get when the local database cannot open (e.g. storage
// blocked): every read errors with the reason, so the page shows 'Error: …'.
import type { ScreenStore, Subscribable } from './store';

export function unavailableStore(reason: string): ScreenStore {
  const fail = <T,>(): Subscribable<T> => ({
    subscribe: (_next, error) => {
      error?.(new Error(reason));
      return { unsubscribe: () => undefined };
    },
  });
  const reject = () => Promise.reject(new Error(reason));
  return {
    syncState: fail, syncIssues: fail, retryIssue: reject, discardIssue: reject,
    loadDraft: () => Promise.resolve(null), saveDraft: reject, deleteDraft: reject,
    topics: fail, searchTopics: fail, topic: fail, replies: fail,
    ancestors: reject, searchResponses: reject, searchSources: reject, openTopic: () => undefined,
    createTopic: reject, deleteTopic: reject, createResponse: reject, editResponse: reject, deleteResponse: reject, toggleVote: reject,
  };
}
