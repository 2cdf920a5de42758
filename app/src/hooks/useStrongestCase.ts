// The strongest case on each side of a topic, from the device's copy: the topic's
// responses (the page's shared live tree, so no extra query) and its participants by side. It moves
// with every vote, stance or response that reaches the device, and works offline.
import { useMemo } from 'react';
import { STRONGEST_CASE_SIZE, strongestCase, type StrongestCase } from '../../../shared/rules/strongest-case';
import type { ResponseView } from './useReplies';
import { useBlockedUids } from './useBlocks';
import { useTopicResponses } from './useTopicResponses';
import { firstScreenCase } from '../data/first-page';

const NONE: StrongestCase<ResponseView> = { for: [], against: [] };

/** Ranks `responses`; a blocked author's responses are never put forward. */
export function useRankedCase(responses: readonly ResponseView[], participants: { agree: number; disagree: number }) {
  const blocked = useBlockedUids();
  const { agree, disagree } = participants;
  return useMemo(() => {
    if (responses.length === 0) return NONE;
    return strongestCase(responses, { agree, disagree }, STRONGEST_CASE_SIZE, (r) => blocked.has(r.creator_uid));
  }, [responses, blocked, agree, disagree]);
}

/**
 * The ranking from the device's copy; until the device has the topic's responses, `firstScreen` is
 * the server's ranking a first visit's page came with (data/first-page.ts), or null.
 */
export function useStrongestCase(topicId: string, participants: { agree: number; disagree: number }) {
  const { responses, error, loading } = useTopicResponses(topicId);
  const best = useRankedCase(responses, participants);
  const firstScreen = loading || responses.length === 0 ? firstScreenCase(topicId) : null;
  return { best, count: responses.length, error, loading, firstScreen };
}
