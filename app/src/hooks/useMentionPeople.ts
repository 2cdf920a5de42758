// The people a response can @mention: the topic's participants as this device knows
// them (the topic's creator and the authors of its responses in the local store), so suggestions
// and mention links work offline. One list per topic page, shared through a context.
import { createContext, useContext, useMemo } from 'react';
import { distinctUntilChanged, map } from 'rxjs';
import type { MentionPerson } from '../../../shared/rules/mentions';
import { useData } from './useData';
import { useObservable } from './useObservable';

const NOBODY: readonly MentionPerson[] = [];
export const MentionPeopleContext = createContext<readonly MentionPerson[]>(NOBODY);

/** The participants of the open topic (the provider is the topic page); none elsewhere. */
export const useMentionPeople = () => useContext(MentionPeopleContext);

/**
 * The topic's participants with a name, creator first, each once. The authors are compared as text
 * in the data stream, so the page (and every memoised row) renders again only when someone new takes
 * part or renames, not on each vote or reply.
 */
export function useTopicPeople(topicId: string, creatorUid: string | null, creatorName: string | null): readonly MentionPerson[] {
  const data = useData();
  const authors$ = useMemo(
    () =>
      data.topicResponses$(topicId).pipe(
        map((responses) => {
          const byUid = new Map<string, string>();
          for (const response of responses)
            if (response.username && !byUid.has(response.creator_uid)) byUid.set(response.creator_uid, response.username);
          return JSON.stringify([...byUid]);
        }),
        distinctUntilChanged(),
      ),
    [data, topicId],
  );
  const authors = useObservable(authors$).value ?? '[]';
  return useMemo(() => {
    const byUid = new Map<string, string>();
    if (creatorUid && creatorName) byUid.set(creatorUid, creatorName);
    for (const [uid, name] of JSON.parse(authors) as [string, string][]) if (!byUid.has(uid)) byUid.set(uid, name);
    return [...byUid].map(([uid, name]) => ({ uid, name }));
  }, [authors, creatorUid, creatorName]);
}
