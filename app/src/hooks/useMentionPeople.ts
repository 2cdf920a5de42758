// The people a response can @mention (issue 26 #4): the topic's participants as this device knows
// them (the topic's creator and the authors of its responses in the local store), so suggestions
// and mention links work offline. One list per topic page, shared through a context: it changes
// only when someone new takes part or renames, so the memoised rows do not re-render per vote.
import { createContext, useContext, useMemo } from 'react';
import type { MentionPerson } from '../../../shared/rules/mentions';
import { useTopicResponses } from './useTopicResponses';

const NOBODY: readonly MentionPerson[] = [];
export const MentionPeopleContext = createContext<readonly MentionPerson[]>(NOBODY);

/** The participants of the open topic (the provider is the topic page); none elsewhere. */
export const useMentionPeople = () => useContext(MentionPeopleContext);

/** The topic's participants with a name, creator first, each once; the same array while they stay the same. */
export function useTopicPeople(topicId: string, creatorUid: string | null, creatorName: string | null): readonly MentionPerson[] {
  const { responses } = useTopicResponses(topicId);
  // Compared as text: a new list of responses with the same people keeps the same array.
  const key = useMemo(() => {
    const byUid = new Map<string, string>();
    if (creatorUid && creatorName) byUid.set(creatorUid, creatorName);
    for (const response of responses)
      if (response.username && !byUid.has(response.creator_uid)) byUid.set(response.creator_uid, response.username);
    return JSON.stringify([...byUid].map(([uid, name]) => ({ uid, name })));
  }, [responses, creatorUid, creatorName]);
  return useMemo(() => JSON.parse(key) as MentionPerson[], [key]);
}
