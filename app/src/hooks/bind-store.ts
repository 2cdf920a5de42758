// Adapts the data layer's CruxData (app/src/data, issue 3) to the ScreenStore the
// screens use, and follows the Firebase user into the data layer's session.
import { firstValueFrom, map, type Observable } from 'rxjs';
import type { CruxData } from '../data/api';
import type { Category } from '../../../shared/constants';
import { getCurrentFirebaseUser, getSession, subscribeSession } from '../auth/session';
import { getToken } from '../auth/session';
import type { ScreenStore, Subscribable } from './store';

const SEARCH_LIMIT = 50;

function wrap<T>(source: Observable<T>): Subscribable<T> {
  return { subscribe: (next, error) => source.subscribe({ next, error }) };
}

export function toScreenStore(data: CruxData): ScreenStore {
  return {
    syncState: () => wrap(data.status$),
    syncIssues: () => wrap(data.syncProblems$().pipe(map((list) => list.map(({ id, kind, action, error, itemId }) => ({ id, kind, action, error, itemId }))))),
    retryIssue: (id) => data.fixProblem(id),
    discardIssue: (id) => data.discardProblem(id),
    loadDraft: async (key) => (await data.loadDraft(key))?.text ?? null,
    saveDraft: (key, text) => data.saveDraft(key, text),
    deleteDraft: (key) => data.deleteDraft(key),
    topics: ({ sort, category, limit }) => wrap(data.topics$({ sort, limit, ...(category ? { category: category as Category } : {}) })),
    searchTopics: (text, sort) => wrap(data.topics$({ search: text, sort, limit: SEARCH_LIMIT })),
    topic: (topicId) => wrap(data.topic$(topicId)),
    replies: (topicId, parentId) => wrap(parentId ? data.replies$(parentId) : data.rootResponses$(topicId)),
    // ancestorPath includes the response itself; the screens need the ones above it.
    ancestors: async (_topicId, responseId) => (await data.ancestorPath(responseId)).filter((id) => id !== responseId),
    searchResponses: (topicId, text) => {
      const needle = text.toLowerCase();
      return firstValueFrom(data.topicResponses$(topicId).pipe(map((all) => all.filter((r) => r.content.toLowerCase().includes(needle)))));
    },
    // The topic's own sources (local, offline too) first, then the site's catalogue from the server.
    searchSources: async (topicId, text) => {
      const needle = text.toLowerCase();
      const [local, catalogue] = await Promise.all([
        firstValueFrom(data.topicResponses$(topicId)),
        data.searchSources(text),
      ]);
      const byUrl = new Map<string, { url: string; name: string | null; description: string | null }>();
      for (const r of local) for (const { url, name, description } of r.sources) {
        if (!byUrl.has(url) && `${url} ${name ?? ''}`.toLowerCase().includes(needle)) byUrl.set(url, { url, name, description });
      }
      for (const { url, name, description } of catalogue) if (!byUrl.has(url)) byUrl.set(url, { url, name, description });
      return [...byUrl.values()];
    },
    openTopic: (topicId) => data.openTopic(topicId),
    createTopic: async (input) => ({ id: (await data.createTopic(input)).id }),
    deleteTopic: (topicId) => data.deleteTopic(topicId),
    createResponse: async (input) => ({ id: (await data.createResponse(input)).id }),
    editResponse: (responseId, edit) => data.editResponse(responseId, edit),
    deleteResponse: (responseId) => data.deleteResponse(responseId),
    toggleVote: async ({ type, id }) => {
      await data.toggleVote(type, id);
    },
  };
}

/** Opens the signed-in user's data on sign-in and closes it on sign-out. */
export function followSession(data: CruxData): () => void {
  let lastUid: string | null | undefined;
  const sync = () => {
    const { ready, user } = getSession();
    if (!ready) return;
    const uid = user?.uid ?? null;
    if (uid === lastUid) return;
    lastUid = uid;
    const firebaseUser = getCurrentFirebaseUser();
    if (uid && firebaseUser) void data.signIn({ uid, getToken: (force) => getToken(force) });
    else void data.signOut();
  };
  const unsubscribe = subscribeSession(sync);
  sync();
  return unsubscribe;
}
