// Why the signed-in user cannot post here now: the topic is locked (no new responses),
// or they are suspended (every write is refused). null when nothing stands in the way. Offline
// writes made anyway still meet the server's refusal as sync problems.
import { createContext, useContext, useMemo } from 'react';
import { MSG } from '../../../shared/messages';
import { useData } from './useData';
import { useSuspension } from './useMyAccount';
import { useObservable } from './useObservable';

export interface WriteBlock {
  /** 'suspended': the app's banner says why (SuspensionBanner), once a screen; 'locked': the topic's composer says it. */
  kind: 'suspended' | 'locked';
  message: string;
}

/** `topicId`: the topic replied to (null: not a reply, e.g. a new topic); `edit`: an edit (a lock does not stop it). */
export function useWriteBlock(topicId: string | null, edit = false): WriteBlock | null {
  const data = useData();
  const topic$ = useMemo(() => (topicId ? data.topic$(topicId) : null), [data, topicId]);
  const topic = useObservable(topic$).value;
  const suspension = useSuspension();
  if (suspension) return { kind: 'suspended', message: suspension };
  if (!edit && topic?.locked) return { kind: 'locked', message: MSG.topicLocked };
  return null;
}

/**
 * The topic page's block, read once for the page: its Respond and every response's Reply are not
 * offered while it stands (a control that cannot be used is not shown).
 */
export const TopicWriteBlockContext = createContext<WriteBlock | null>(null);
export const useTopicWriteBlock = () => useContext(TopicWriteBlockContext);

/**
 * Whether the block of the page read is a suspension (the topic page's, or a list's or a user page's
 * own provider): a suspended account's votes, stances, reports, follows and Δ are refused as its
 * posts are, so they are shown without being offered, and the banner alone says why.
 */
export const useSuspendedHere = () => useContext(TopicWriteBlockContext)?.kind === 'suspended';
