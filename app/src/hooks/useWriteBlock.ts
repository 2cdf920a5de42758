// Why the signed-in user cannot post here now: the topic is locked (no new responses),
// or they are suspended (every write is refused). null when nothing stands in the way. Offline
// writes made anyway still meet the server's refusal as sync problems.
import { useMemo } from 'react';
import { MSG } from '../../../shared/messages';
import { useData } from './useData';
import { useSuspension } from './useMyAccount';
import { useObservable } from './useObservable';

/** `topicId`: the topic replied to (null: not a reply, e.g. a new topic); `edit`: an edit (a lock does not stop it). */
export function useWriteBlock(topicId: string | null, edit = false): string | null {
  const data = useData();
  const topic$ = useMemo(() => (topicId ? data.topic$(topicId) : null), [data, topicId]);
  const topic = useObservable(topic$).value;
  const suspension = useSuspension();
  if (suspension) return suspension;
  if (!edit && topic?.locked) return MSG.topicLocked;
  return null;
}
